/** One endpoint of DESIGN.md §4: an HTTP request or, for ws:// and wss:// urls, a WebSocket session. */
import { z } from 'zod';
import { checksSchema, expectSchema } from './check-schema.js';
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
} from './fields.js';
import { cssSelector, jsonPath, regexPattern } from './pattern-fields.js';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const EXTRACTOR_FORMS =
  'a JSONPath such as $.access_token, or one of { json: <path> }, { header: <name> }, { regex: <pattern> }, { css: <selector>, attr: <name> (optional) }';

/**
 * Where an extracted value comes from: a JSONPath string, `{ json: path }`, `{ header: name }`,
 * `{ regex: pattern }` or `{ css: selector, attr?: name }`. A mapping that fits none gets the list
 * of forms, and `attr` without `css` is named as such.
 */
export const extractorSchema = z.union(
  [
    jsonPath,
    z.strictObject({ json: jsonPath }),
    z.strictObject({ header: nonEmpty('response header name') }),
    z.strictObject({ regex: regexPattern }),
    z.strictObject({
      css: cssSelector,
      attr: nonEmpty('attribute of the element css selects').optional(),
    }),
  ],
  {
    error: (issue) =>
      isObject(issue.input) && 'attr' in issue.input && !('css' in issue.input)
        ? '{ css: <selector>, attr: <name> }: attr reads an attribute of the element a css selector finds, so it needs css'
        : EXTRACTOR_FORMS,
  },
);

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** A WebSocket message: UTF-8 text (placeholders allowed) or bytes written base64:… */
export const wsMessageSchema = z.union(
  [
    z.strictObject({ text: template('WebSocket text message') }),
    z.strictObject({
      binary: z.string().regex(/^base64:[A-Za-z0-9+/]*={0,2}$/, {
        error: 'base64:<data> (binary WebSocket message)',
      }),
    }),
  ],
  { error: '{ text: <string> } or { binary: "base64:<data>" }' },
);

/** An endpoint entry. */
export const endpointSchema = z.strictObject(
  {
    name: nonEmpty('endpoint name')
      .optional()
      .describe('Name in reports and flows; default "METHOD url"'),
    method: httpMethod().default('GET'),
    url: template(
      'endpoint url, relative to target or absolute (http, https, ws, wss)',
      true,
    ).describe('Relative to target, or absolute; ws:// and wss:// make a WebSocket session'),
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
    extract: z
      .record(
        z.string().regex(VARIABLE_NAME, { error: 'a variable name (letters, digits, _ . -)' }),
        extractorSchema,
        {
          error: 'a mapping of variable names to extractors',
        },
      )
      .optional()
      .describe(
        'Variables extracted from the response: name → JSONPath, { json }, { header }, { regex }, or { css, attr }',
      ),
    expect: expectSchema.optional(),
    checks: checksSchema.optional(),
    checks_fail_request: flag('a failed check fails the request as check_failed')
      .optional()
      .describe('A failed check fails its request as check_failed (default: it does not)'),
    timeout: duration('endpoint timeout').optional(),
    max_redirects: positiveInt('redirects followed; 0 = none', 0)
      .optional()
      .describe('Redirects this endpoint follows (default: the top-level max_redirects)'),
    think: thinkTime('pause after this endpoint')
      .optional()
      .describe('Pause after the response, as a user reading it: 2s, or a range such as 1s-3s'),
    messages: z.array(wsMessageSchema, { error: 'a list of WebSocket messages' }).optional(),
    message_interval: duration('pause between WebSocket messages', true).optional(),
    subprotocols: z
      .array(nonEmpty('WebSocket subprotocol'), { error: 'a list of subprotocol names' })
      .optional(),
  },
  { error: 'an endpoint: a mapping with at least url' },
);

/** A weighted, ordered sequence of endpoint names; one flow per permit. */
export const flowSchema = z.strictObject(
  {
    name: nonEmpty('flow name'),
    weight: positiveInt('flow weight').default(1),
    think: thinkTime('pause between steps')
      .optional()
      .describe("Pause between steps (an endpoint's own think wins): 2s, or a range such as 1s-3s"),
    steps: z
      .array(nonEmpty('endpoint name'), { error: 'a list of endpoint names' })
      .min(1, { error: 'at least one step' }),
  },
  { error: 'a flow: { name, weight, steps: [endpoint names] }' },
);
