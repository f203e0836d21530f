/**
 * Comparison thresholds of `barrage compare`: a threshold whose value is the base run's own
 * figure, scaled or shifted (`http_req_duration:p95 < baseline * 1.10`, `checks:rate >= baseline
 * - 0.01`), judged on the new run's. The threshold grammar parses them (dsl/grammar/threshold.ts,
 * `baseline` values), so metric, tags, aggregate and operator errors read as everywhere. A plain
 * threshold (a number after the operator) is refused: compare has no plan to judge it against
 * (`barrage run` takes those).
 */
import type { ConfigIssue } from '../../dsl/issues.js';
import { parseThreshold } from '../../dsl/grammar/threshold.js';
import type { RelativeLimit, ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { thresholdHolds } from '../../runtime/thresholds/evaluate.js';
import { figureKey, type FigureChange } from './comparison.js';

const EXAMPLE = 'http_req_duration:p95 < baseline * 1.10';

/** A parsed comparison threshold: a spec whose limit is relative. */
export type RelativeThreshold = ThresholdSpec & { readonly relative: RelativeLimit };

/** One threshold judged on the two runs. */
export interface RelativeThresholdResult {
  readonly expression: string;
  readonly baseline: number | null;
  readonly actual: number | null;
  readonly limit: number | null;
  readonly pass: boolean;
}

/** Parses one `--threshold` value; an issue naming the flag when it is not a relative one. */
export function parseRelativeThreshold(
  expression: string,
): { ok: true; threshold: RelativeThreshold } | { ok: false; issue: ConfigIssue } {
  const fail = (expected: string, actual: string): { ok: false; issue: ConfigIssue } => ({
    ok: false,
    issue: {
      code: 'invalid_value',
      source: { kind: 'flag', flag: '--threshold' },
      path: [],
      expected,
      actual,
    },
  });
  const parsed = parseThreshold(expression);
  if (!parsed.ok) return fail(`a relative threshold such as "${EXAMPLE}"`, parsed.error.message);
  const spec = parsed.value;
  if (spec.relative === undefined)
    return fail(
      `a relative threshold such as "${EXAMPLE}" or "… < baseline + 20" (compare judges the new run against the base run; a plain threshold belongs to barrage run)`,
      JSON.stringify(expression),
    );
  if (thresholdFigure(spec) === undefined)
    return fail(`a threshold on what compare reads: ${READABLE}`, JSON.stringify(expression));
  return { ok: true, threshold: { ...spec, relative: spec.relative } };
}

/** Which figure a threshold reads: metric, aggregate and tags to scope and name. */
const FIGURE_OF_AGGREGATE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  http_req_duration: { p50: 'p50', p90: 'p90', p95: 'p95', p99: 'p99', avg: 'mean', mean: 'mean' },
  http_req_failed: { rate: 'failure rate' },
  http_requests: { count: 'requests', rate: 'requests/s' },
  checks: { rate: 'pass rate' },
  llm_time_to_first_token: { p50: 'TTFT p50', p95: 'TTFT p95', p99: 'TTFT p99' },
  llm_inter_token_latency: { p50: 'ITL p50', p95: 'ITL p95', p99: 'ITL p99' },
  llm_time_per_output_token: { p50: 'TPOT p50', p95: 'TPOT p95', p99: 'TPOT p99' },
  llm_request_duration: { p50: 'E2E p50', p95: 'E2E p95', p99: 'E2E p99' },
  llm_output_tokens: { rate: 'output tokens/s' },
  llm_goodput: { rate: 'goodput' },
};

/** What compare's thresholds may read, for the error that refuses another. */
export const READABLE =
  'http_req_duration (p50, p90, p95, p99, avg), http_req_failed:rate, http_requests (count, rate) and checks{check=<name>}:rate, untagged or with one endpoint, scenario or tag filter; llm_time_to_first_token, llm_inter_token_latency, llm_time_per_output_token, llm_request_duration (p50, p95, p99), llm_output_tokens:rate and llm_goodput:rate, untagged or with a scenario filter';

/** The figure a threshold reads, as scope and name; undefined when compare has none. */
export function thresholdFigure(spec: ThresholdSpec): { scope: string; name: string } | undefined {
  const name = FIGURE_OF_AGGREGATE[spec.metric]?.[spec.aggregate];
  const tags = Object.entries(spec.tags);
  if (name === undefined || tags.length > 1) return undefined;
  if (spec.metric === 'checks')
    return tags[0]?.[0] === 'check' ? { scope: `check ${tags[0][1]}`, name } : undefined;
  if (tags.length === 0) return { scope: 'run', name };
  const [key, value] = tags[0]!;
  if ((name === 'requests/s' || spec.metric.startsWith('llm_')) && key !== 'scenario')
    return undefined;
  if (key === 'endpoint' || key === 'scenario') return { scope: `${key} ${value}`, name };
  return { scope: `tag ${key}=${value}`, name };
}

/** Judges each threshold on the two runs' figures: the new value against the baseline's limit. */
export function judgeThresholds(
  thresholds: readonly RelativeThreshold[],
  all: readonly FigureChange[],
): RelativeThresholdResult[] {
  const byKey = new Map(all.map((c) => [figureKey(c.scope, c.name), c]));
  return thresholds.map((t) => {
    const figure = thresholdFigure(t);
    const found =
      figure === undefined ? undefined : byKey.get(figureKey(figure.scope, figure.name));
    const baseline = found?.base ?? null;
    const actual = found?.next ?? null;
    const limit = baseline === null ? null : relativeLimit(t.relative, baseline);
    const pass = limit !== null && actual !== null && thresholdHolds(actual, t.operator, limit);
    return { expression: t.expression, baseline, actual, limit, pass };
  });
}

/** The limit a relative threshold sets from the baseline's figure: b × factor + offset. */
export function relativeLimit(relative: RelativeLimit, baseline: number): number {
  return baseline * relative.factor + relative.offset;
}
