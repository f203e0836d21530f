/**
 * Field builders shared by the config schemas. Each sets its error text to what the field expects,
 * so a ConfigIssue reads "expected <that text>, got <value>" instead of zod's generic wording.
 */
import { z } from 'zod';
import { parseDuration } from '../grammar/duration.js';
import { lineBreaksIn } from '../grammar/line-breaks.js';
import { parseTemplate } from '../grammar/placeholder.js';

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
    [template('request body'), z.record(z.string(), z.unknown()), z.array(z.unknown())],
    {
      error: 'a request body: text, or a mapping or list to send as JSON',
    },
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
