/**
 * The parts of a HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/) that barrage
 * reads, as written by Chrome, Firefox, Playwright and proxies. Everything else in an entry
 * (timings, cookies arrays, response bodies…) is ignored and dropped on parse. The fields the
 * spec requires and barrage needs are required here; the rest are optional so that tools that
 * leave them out still import. An entry that fails this schema is skipped and counted by its
 * problem (read-har.ts), so one malformed third-party entry does not refuse the whole file. Chrome's private fields (`_resourceType`, `_fromCache`,
 * `_webSocketMessages`) are read when present.
 */
import * as z from 'zod';

const text = (what: string) => z.string({ error: `text (${what})` });

const nameValue = (what: string) =>
  z.object(
    { name: text(`${what} name`), value: text(`${what} value`) },
    { error: `a { name, value } pair (${what})` },
  );

/** One recorded request and its response. */
export const harEntrySchema = z.object(
  {
    request: z.object(
      {
        method: text('request method'),
        url: text('request URL'),
        headers: z.array(nameValue('header'), { error: 'a list of headers' }).default([]),
        bodySize: z.number({ error: 'a number (request body size)' }).optional(),
        postData: z
          .object(
            {
              mimeType: text('body media type').optional(),
              text: text('request body').optional(),
              params: z
                .array(
                  z.object(
                    { name: text('form field name'), value: text('form field value').optional() },
                    { error: 'a { name, value } pair (form field)' },
                  ),
                  { error: 'a list of form fields' },
                )
                .optional(),
            },
            { error: 'a mapping (postData)' },
          )
          .optional(),
      },
      { error: 'a mapping with method, url and headers (request)' },
    ),
    response: z.object(
      {
        status: z.number({ error: 'a number (response status)' }),
        headers: z.array(nameValue('header'), { error: 'a list of headers' }).default([]),
        content: z
          .object(
            {
              mimeType: text('response media type').optional(),
              // The body, read only to find values later requests reuse (har-correlate.ts).
              text: z.string().optional().catch(undefined),
              encoding: z.string().optional().catch(undefined),
            },
            { error: 'a mapping (response content)' },
          )
          .optional(),
      },
      { error: 'a mapping with status (response)' },
    ),
    /** When the request started (ISO 8601) and how long it took (ms): the user's think times. */
    startedDateTime: z.string().optional().catch(undefined),
    time: z.number().optional().catch(undefined),
    /** Chrome: document, stylesheet, image, font, script, fetch, xhr, websocket… */
    _resourceType: z.string().optional().catch(undefined),
    /** Chrome: "memory" or "disk" when the browser's cache answered (nothing reached the server). */
    _fromCache: z.string().optional().catch(undefined),
    /**
     * Chrome, Chromium-based tools and mitmproxy: a WebSocket's frames (time in seconds; opcode 1
     * text, 2 binary in base64, 8-10 control). Unreadable frames are dropped one by one.
     */
    _webSocketMessages: z
      .array(
        z
          .object({
            type: z.string(),
            time: z.number().optional().catch(undefined),
            opcode: z.number(),
            data: z.string().default(''),
          })
          .optional()
          .catch(undefined),
      )
      .optional()
      .catch(undefined),
  },
  { error: 'a mapping with request and response (HAR entry)' },
);

/** A HAR entry as barrage reads it. */
export type HarEntry = z.output<typeof harEntrySchema>;

/** The recording tool, when the file names it (shown in summaries). */
export const harCreatorSchema = z
  .object({ name: z.string(), version: z.string().optional() })
  .optional()
  .catch(undefined);
