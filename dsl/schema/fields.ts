/**
 * Field builders shared by the config schemas. Each sets its error text to what the field expects,
 * so a ConfigIssue reads "expected <that text>, got <value>" instead of zod's generic wording.
 */
import * as z from 'zod';
import { parseDuration } from '../grammar/duration.js';
import { lineBreaksIn } from '../grammar/line-breaks.js';
import { parseTemplate } from '../grammar/placeholder.js';
import type { ThinkRange } from '../../model/plan/endpoint-plan.js';
import { BUILTIN_TAGS, isBuiltinTag, TAG_KEY } from '../../model/metrics/metric-registry.js';

/** The zod issue params our refinements attach: a stable issue code and, optionally, a hint. */
export interface IssueParams {
  readonly code:
    | 'invalid_duration'
    | 'invalid_jsonpath'
    | 'invalid_regex'
    | 'invalid_selector'
    | 'invalid_placeholder'
    | 'invalid_threshold'
    | 'invalid_value';
  readonly hint?: string;
  /**
   * Where a grammar failed ("name at character 12"): the only detail shown when the value is a
   * secret, since the grammar's message quotes the value and the failing part of it.
   */
  readonly at?: string;
}

/** An integer ≥ min (default 1). */
export function positiveInt(what: string, min = 1): z.ZodInt {
  const text = min === 1 ? `a positive integer (${what})` : `an integer ≥ ${min} (${what})`;
  return z
    .int({ error: text })
    .min(min, { error: text })
    .max(Number.MAX_SAFE_INTEGER, { error: text });
}

/** A finite number > 0, or ≥ 0 when zero is allowed. */
export function positiveNumber(what: string, allowZero = false): z.ZodNumber {
  const text = `a number ${allowZero ? '≥' : '>'} 0 (${what})`;
  const n = z.number({ error: text }).refine(Number.isFinite, { error: text });
  return allowZero ? n.min(0, { error: text }) : n.gt(0, { error: text });
}

/** A fraction in [0, 1]. */
export function fraction(what: string): z.ZodNumber {
  const text = `a number from 0 to 1 (${what})`;
  return z.number({ error: text }).min(0, { error: text }).max(1, { error: text });
}

/** Think time: a duration (`2s`) or a range (`1s-3s`) → { minMs, maxMs }. */
export function thinkTime(what: string) {
  const text = `a duration such as 2s, or a range such as 1s-3s (${what})`;
  return z
    .string({ error: text })
    .transform((value, ctx): ThinkRange => {
      const ends = value.split('-').map((end) => parseDuration(end.trim()));
      const [min, max = min] = ends;
      const fail = (message: string): typeof z.NEVER => {
        ctx.addIssue({
          code: 'custom',
          message,
          input: value,
          params: { code: 'invalid_duration' },
        });
        return z.NEVER;
      };
      if (ends.length > 2 || min === undefined || max === undefined) return fail(text);
      if (!min.ok) return fail(min.error.message);
      if (!max.ok) return fail(max.error.message);
      if (max.value < min.value) return fail(`a range whose end is not before its start (${what})`);
      return { minMs: min.value, maxMs: max.value };
    })
    .meta({ description: text });
}

/** Duration text such as 250ms, 30s, 1m30s, 2h → milliseconds. */
export function duration(what: string, allowZero = false) {
  const text = `a duration such as 250ms, 30s, 1m30s or 2h (${what})`;
  const typeError = (issue: { input?: unknown }): string =>
    typeof issue.input === 'number'
      ? `a duration with a unit, such as ${issue.input}s or ${issue.input}ms (${what})`
      : text;
  return z
    .string({ error: typeError })
    .transform((value, ctx) => {
      const parsed = parseDuration(value);
      if (!parsed.ok) {
        ctx.addIssue({
          code: 'custom',
          message: parsed.error.message,
          input: value,
          params: { code: 'invalid_duration' },
        });
        return z.NEVER;
      }
      if (!allowZero && parsed.value === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `a duration longer than 0 (${what})`,
          input: value,
          params: { code: 'invalid_duration' },
        });
        return z.NEVER;
      }
      return parsed.value;
    })
    .meta({ description: text });
}

/**
 * A string that may hold {{placeholders}}; checked here, compiled by compile-plan. A url or a
 * header value (`singleLine`) may not hold CR, LF or NUL (grammar/line-breaks.ts).
 */
export function template(what: string, singleLine = false) {
  const text = `text (${what}); {{name}} and {{$uuid}}-style placeholders allowed`;
  return z.string({ error: text }).superRefine((value, ctx) => {
    const parsed = parseTemplate(value);
    if (!parsed.ok) {
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.message,
        input: value,
        params: {
          code: 'invalid_placeholder',
          at: `${parsed.error.part} at character ${parsed.error.position + 1}`,
        },
      });
    }
    if (singleLine) refuseLineBreaks(value, what, ctx);
  });
}

/** Adds an issue when `value` holds CR, LF or NUL; the hint names them, never the value. */
function refuseLineBreaks(value: string, what: string, ctx: z.RefinementCtx): void {
  const found = lineBreaksIn(value);
  if (found === undefined) return;
  const params: IssueParams = { code: 'invalid_value', hint: `it holds ${found}` };
  ctx.addIssue({
    code: 'custom',
    message: `text without CR, LF or NUL (${what})`,
    input: value,
    params,
  });
}

/** A request body: text (placeholders allowed), or a mapping/list sent as JSON. */
export function body() {
  return z.union(
    [
      template('request body'),
      z.record(z.string(), z.unknown()).superRefine(checkJsonTemplates),
      z.array(z.unknown()).superRefine(checkJsonTemplates),
    ],
    {
      error: 'a request body: text, or a mapping or list to send as JSON',
    },
  );
}

/** Checks the placeholders of every key and string value inside a JSON value (a body, a Socket.IO event, a gRPC message), at its own path. */
export function checkJsonTemplates(value: unknown, ctx: z.RefinementCtx): void {
  const visit = (node: unknown, path: (string | number)[]): void => {
    const check = (text: string, at: (string | number)[]): void => {
      const parsed = parseTemplate(text);
      if (parsed.ok) return;
      const params: IssueParams = {
        code: 'invalid_placeholder',
        at: `${parsed.error.part} at character ${parsed.error.position + 1}`,
      };
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.message,
        input: text,
        path: at,
        params,
      });
    };
    if (typeof node === 'string') check(node, path);
    else if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...path, i]));
    else if (node !== null && typeof node === 'object')
      for (const [key, item] of Object.entries(node)) {
        check(key, [...path, key]);
        visit(item, [...path, key]);
      }
  };
  visit(value, []);
}

/** A value of a `query:` or `form:` field: text (placeholders allowed), a number or a boolean. */
function formValue(what: string) {
  return z.union([template(what), z.number(), z.boolean()], {
    error: `text, a number or a boolean (${what})`,
  });
}

/** Name → value, or a list of values (the name repeated): `query:` and `form:`. */
export function formMap(what: string) {
  const value = formValue(`value of ${what}`);
  return z.record(
    z.string(),
    z.union([value, z.array(value)], {
      error: `text, a number, a boolean or a list of them (value of ${what})`,
    }),
    { error: `a mapping of names to values (${what})` },
  );
}

/**
 * A file part of `multipart:`, read at load time relative to the configuration file; placeholders
 * in its path are feeder fields (dsl/sources/multipart-files.ts).
 */
const multipartFile = z.strictObject(
  {
    file: template('multipart file path; placeholders are feeder fields', true).min(1),
    content_type: z.string({ error: 'a media type such as image/png' }).min(1).optional(),
    filename: z.string({ error: 'a file name (multipart filename)' }).min(1).optional(),
  },
  { error: '{ file: <path>, content_type?: <type>, filename?: <name> }' },
);

/**
 * Name → text field (placeholders allowed), number, boolean, or a file, or a list of them (the
 * name repeated, one part an item): `multipart:`.
 */
export function multipartMap() {
  const part = z.union([formValue('multipart field'), multipartFile], {
    error: 'text, a number, a boolean or { file: <path> } (multipart field)',
  });
  return z.record(
    z.string(),
    z.union([part, z.array(part)], {
      error: 'text, a number, a boolean, { file: <path> } or a list of them (multipart field)',
    }),
    { error: 'a mapping of field names to values or files (multipart)' },
  );
}

/** Header name → value (placeholders allowed in values). Names are HTTP tokens. */
export function headerMap(what: string) {
  const nameText = "a header name (letters, digits and !#$%&'*+-.^_`|~)";
  return z.record(
    z.string().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, { error: nameText }),
    template(`value of a header in ${what}`, true),
    { error: `a mapping of header names to values (${what})` },
  );
}

const METHOD = /^[A-Za-z]+$/;

/** An HTTP method, upper-cased: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another token. */
export function httpMethod() {
  const text = 'an HTTP method such as GET, POST, PUT, PATCH, DELETE';
  return z
    .string({ error: text })
    .regex(METHOD, { error: text })
    .transform((m) => m.toUpperCase());
}

/** An absolute URL whose scheme is one of the given ones. */
export function absoluteUrl(what: string, schemes: readonly string[]) {
  const text = `an absolute ${schemes.join(' or ')} URL (${what})`;
  return z
    .string({ error: text })
    .refine(
      (value) => {
        try {
          return schemes.includes(new URL(value).protocol.slice(0, -1));
        } catch {
          return false;
        }
      },
      { error: text, abort: true },
    )
    .superRefine((value, ctx) => refuseLineBreaks(value, what, ctx));
}

/** A non-empty string. */
export function nonEmpty(what: string) {
  const text = `a non-empty string (${what})`;
  return z.string({ error: text }).min(1, { error: text });
}

/** A boolean true/false. */
export function flag(what: string) {
  return z.boolean({ error: `true or false (${what})` });
}

/**
 * A user's tags (`tags:` of the run, a scenario or an endpoint): text values under keys that are
 * not barrage's own (docs/configuration.md, Tags).
 */
export function userTags(what: string) {
  const key = `a tag key: a letter or _, then letters, digits, _ . - (not one of barrage's own: ${BUILTIN_TAGS.join(', ')})`;
  return z
    .record(
      z
        .string()
        .regex(TAG_KEY, { error: key })
        .refine((k) => !isBuiltinTag(k), { error: key }),
      z.string({ error: 'a text tag value' }).min(1, { error: 'a non-empty tag value' }),
      { error: `a mapping of tag names to text (${what})` },
    )
    .default({});
}
