/** One endpoint of DESIGN.md §4: an HTTP request or, for ws:// and wss:// urls, a WebSocket session. */
import * as z from 'zod';
import { checksSchema, expectSchema, statusList } from './check-schema.js';
import {
  body,
  duration,
  flag,
  formMap,
  headerMap,
  httpMethod,
  multipartMap,
  nonEmpty,
  positiveInt,
  template,
  thinkTime,
  userTags,
} from './fields.js';
import { STREAM_KINDS } from '../../model/plan/endpoint-plan.js';
import { extractMap } from './extractor-schema.js';
import { llmSchema } from './llm-schema.js';
import { endpointMetricsMap } from './metrics-schema.js';
import { socketioSchema } from './socketio-schema.js';
import { wsMessageSchema, wsSessionSchema } from './ws-session-schema.js';
import { grpcSchema } from './grpc-schema.js';

/** An endpoint entry. */
export function endpointSchema() {
  return z.strictObject(
    {
      name: nonEmpty('endpoint name')
        .optional()
        .describe('Name in reports and flows; default "METHOD url"'),
      method: httpMethod().default('GET'),
      url: template(
        'endpoint url, relative to target or absolute (http, https, ws, wss, grpc, grpcs)',
        true,
      ).describe(
        'Relative to target, or absolute; ws:// and wss:// make a WebSocket session, grpc:// and grpcs:// a gRPC call',
      ),
      headers: headerMap('endpoint headers').optional(),
      query: formMap('query')
        .optional()
        .describe(
          "Query parameters appended to the url's own query (form-encoded; a list repeats the name)",
        ),
      body: body().optional(),
      form: formMap('form')
        .optional()
        .describe(
          'Fields sent as application/x-www-form-urlencoded (exclusive with body, multipart)',
        ),
      multipart: multipartMap()
        .optional()
        .describe(
          'Fields and files ({ file, content_type, filename }) sent as multipart/form-data; files are relative to the configuration file',
        ),
      weight: positiveInt('endpoint weight').default(1).describe('Share of the weighted traffic'),
      setup: flag('setup: run once per worker before the weighted traffic').default(false),
      extract: extractMap()
        .optional()
        .describe(
          'Variables extracted from the response: name → JSONPath, { json }, { header }, { regex }, or { css, attr }',
        ),
      reauth: z
        .strictObject(
          {
            on: statusList('statuses that call for new credentials').default([
              { min: 401, max: 401 },
            ]),
            run: nonEmpty('the endpoint that gets new credentials'),
          },
          { error: '{ on: [401], run: <endpoint name> }' },
        )
        .optional()
        .describe(
          'On one of these statuses (default 401), run the named endpoint (which extracts new credentials) and send this request once more',
        ),
      metrics: endpointMetricsMap()
        .optional()
        .describe(
          'Declared custom metrics fed from the response: name → JSONPath, { json }, { header }, { regex }, or { css, attr }',
        ),
      expect: expectSchema().optional(),
      checks: checksSchema.optional(),
      checks_fail_request: flag('a failed check fails the request as check_failed')
        .optional()
        .describe('A failed check fails its request as check_failed (default: it does not)'),
      timeout: duration('endpoint timeout').optional(),
      stream: z
        .enum(STREAM_KINDS, {
          error:
            'sse (a text/event-stream response read event by event) or chunks (any body read chunk by chunk)',
        })
        .optional()
        .describe(
          'sse: a Server-Sent Events stream, timed event by event (sse_* metrics); chunks: any body timed chunk by chunk as it arrives (stream_* metrics)',
        ),
      idle_timeout: duration('longest pause between events or chunks of a stream')
        .optional()
        .describe(
          'A stream endpoint fails as idle_timeout when no event (sse) or chunk (chunks) comes for this long (default: none)',
        ),
      llm: llmSchema().optional(),
      max_redirects: positiveInt('redirects followed; 0 = none', 0)
        .optional()
        .describe('Redirects this endpoint follows (default: the top-level max_redirects)'),
      think: thinkTime('pause after this endpoint')
        .optional()
        .describe('Pause after the response, as a user reading it: 2s, or a range such as 1s-3s'),
      session: wsSessionSchema().optional(),
      socketio: socketioSchema().optional(),
      messages: z
        .array(z.lazy(wsMessageSchema), { error: 'a list of WebSocket messages' })
        .optional()
        .describe(
          'WebSocket messages, each sent and answered by the next frame (sugar for session)',
        ),
      message_interval: duration('pause between WebSocket messages', true).optional(),
      subprotocols: z
        .array(nonEmpty('WebSocket subprotocol'), { error: 'a list of subprotocol names' })
        .optional(),
      grpc: grpcSchema().optional(),
      tags: userTags("the endpoint's samples").describe(
        "Tags on this endpoint's samples, besides the run's and its scenario's; thresholds can filter on them",
      ),
    },
    { error: 'an endpoint: a mapping with at least url' },
  );
}
