/**
 * A `thresholds` item: an expression (dsl/grammar/threshold.ts), or a mapping that adds k6's
 * `abortOnFail` to it (docs/configuration.md#thresholds):
 *
 *   - 'http_req_duration:p95 < 300'
 *   - { threshold: 'http_req_failed:rate < 0.05', abort_on_fail: true, delay_abort_eval: 10s }
 *
 * Both become one ThresholdSpec; the mapping's `abortOnFail` is set only when abort_on_fail is true.
 * The two forms are checked by refinements and converted once after the union: a zod union keeps
 * the issues of the form the value's type picks only when that form raised no transform's issue,
 * so the grammar errors, the misplaced delay and the unknown keys each name their own key.
 */
import * as z from 'zod';
import type { core } from 'zod';
import { parseDuration } from '../grammar/duration.js';
import type { GrammarError } from '../grammar/grammar-error.js';
import { parseThreshold } from '../grammar/threshold.js';
import type { ThresholdSpec } from '../plan/threshold-spec.js';
import type { Result } from '../result.js';
import { flag, type IssueParams } from './fields.js';

const EXPRESSION = 'a threshold such as "http_req_duration:p95 < 300"';
const MAPPING =
  'a mapping { threshold: <expression>, abort_on_fail: true, delay_abort_eval: <duration such as 10s> }';

/** A string checked by a grammar; the issue quotes the grammar's message. */
function grammarText<T>(
  error: string,
  parse: (text: string) => Result<T, GrammarError>,
  code: IssueParams['code'],
) {
  return z.string({ error }).superRefine((text, ctx) => {
    const parsed = parse(text);
    if (!parsed.ok)
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.message,
        input: text,
        params: { code },
      });
  });
}

const expression = grammarText(EXPRESSION, parseThreshold, 'invalid_threshold');

const withAbort = z
  .strictObject(
    {
      threshold: expression,
      abort_on_fail: flag('stop the run as soon as the threshold fails')
        .optional()
        .describe('Stop the run as soon as the threshold fails on the live figures; default false'),
      delay_abort_eval: grammarText(
        'a duration such as 250ms, 30s, 1m30s or 2h (time before abort_on_fail judges)',
        parseDuration,
        'invalid_duration',
      )
        .optional()
        .describe('How long after dispatch begins abort_on_fail starts judging; default 0s'),
    },
    { error: MAPPING },
  )
  .superRefine((item, ctx) => {
    if (item.delay_abort_eval !== undefined && item.abort_on_fail !== true)
      ctx.addIssue({
        code: 'custom',
        message: 'abort_on_fail: true beside it (the delay guards a threshold that stops the run)',
        path: ['delay_abort_eval'],
        input: item.delay_abort_eval,
        params: { code: 'invalid_value', hint: 'add abort_on_fail: true, or remove the delay' },
      });
  });

/** One `thresholds` item, as written in YAML, JSON or a scenario's options. */
export const thresholdSchema = z
  .union([expression, withAbort], { error: unionError })
  .transform((item): ThresholdSpec => {
    if (typeof item === 'string') return checked(parseThreshold(item));
    const spec = checked(parseThreshold(item.threshold));
    if (item.abort_on_fail !== true) return spec;
    const delayMs =
      item.delay_abort_eval === undefined ? 0 : checked(parseDuration(item.delay_abort_eval));
    return { ...spec, abortOnFail: { delayMs } };
  });

/**
 * What a mapping the union refused lacked: a key of the wrong type or a missing threshold aborts
 * the mapping's form, so its first issue is named here (the item's line is the closest source).
 */
function unionError(issue: { input?: unknown; errors?: readonly (readonly core.$ZodIssue[])[] }) {
  const first = issue.errors?.[1]?.[0];
  const mapping = typeof issue.input === 'object' && issue.input !== null;
  if (!mapping || first === undefined) return `${EXPRESSION}, or ${MAPPING}`;
  const key = first.path.map(String).join('.');
  return `${MAPPING}; ${key === '' ? '' : `${key}: `}${first.message}`;
}

/** The value of a parse the refinements above already passed; a failure here is a bug. */
function checked<T>(parsed: Result<T, GrammarError>): T {
  if (!parsed.ok) throw new Error(`a checked value failed to parse: ${parsed.error.message}`);
  return parsed.value;
}
