/**
 * A `thresholds` item: an expression (dsl/grammar/threshold.ts), or a mapping that adds k6's
 * `abortOnFail` to it (docs/configuration.md#thresholds):
 *
 *   - 'http_req_duration:p95 < 300'
 *   - { threshold: 'http_req_failed:rate < 0.05', abort_on_fail: true, delay_abort_eval: 10s }
 *
 * Both become one ThresholdItem: the expression, and `abortOnFail` only when abort_on_fail is true.
 * The expression is parsed into its ThresholdSpec at the configuration's level
 * (configured-thresholds.ts), where the custom metrics `metrics:` declares are known: here the
 * grammar is checked with the built-in metrics, and an expression whose metric is unknown but
 * could be a custom metric's name is left to that check, which names the same item.
 * The two forms are checked by refinements and converted once after the union: a zod union keeps
 * the issues of the form the value's type picks only when that form raised no transform's issue,
 * so the grammar errors, the misplaced delay and the unknown keys each name their own key.
 */
import * as z from 'zod';
import type { core } from 'zod';
import { parseDuration } from '../grammar/duration.js';
import type { GrammarError } from '../grammar/grammar-error.js';
import { parseThreshold } from '../grammar/threshold.js';
import { CUSTOM_METRIC_NAME } from '../../model/metrics/metric-registry.js';
import type { AbortOnFail } from '../../model/plan/threshold-spec.js';
import { ok, type Result } from '../result.js';
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

/**
 * The grammar with the built-in metrics; an unknown metric that could be a custom metric's name
 * passes, for configured-thresholds.ts to judge with the declarations.
 */
function builtinGrammar(text: string): Result<string, GrammarError> {
  const parsed = parseThreshold(text);
  if (parsed.ok) return ok(text);
  const metric = /^\s*([^{:<>=!\s]*)/.exec(text)?.[1] ?? '';
  return parsed.error.part === 'metric' && CUSTOM_METRIC_NAME.test(metric) ? ok(text) : parsed;
}

const expression = grammarText(EXPRESSION, builtinGrammar, 'invalid_threshold');

/** A `thresholds` item: its expression, parsed later with the declared metrics. */
export interface ThresholdItem {
  readonly expression: string;
  /** True when written as a mapping: its problems are named at its `threshold` key. */
  readonly mapping: boolean;
  readonly abortOnFail?: AbortOnFail;
}

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
  .transform((item): ThresholdItem => {
    if (typeof item === 'string') return { expression: item, mapping: false };
    if (item.abort_on_fail !== true) return { expression: item.threshold, mapping: true };
    const delayMs =
      item.delay_abort_eval === undefined ? 0 : checked(parseDuration(item.delay_abort_eval));
    return { expression: item.threshold, mapping: true, abortOnFail: { delayMs } };
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
