/**
 * One result as the flat list of figures `barrage compare` sets side by side: the run's totals,
 * rate, failure rate and latency; the same for each endpoint, each named scenario and each tag
 * value the result breaks requests down by; each check's pass rate; each error kind's share of
 * the requests. A measured figure carries its run's standard error (noise.ts), a share its counts.
 */
import type { ResultFigures, RunFigures } from './result-file.js';
import { relativeError, type Share } from './noise.js';

/** What a figure counts, which says how it is shown and how its noise is judged. */
export type FigureUnit = 'ms' | 'count' | 'per_sec' | 'share';

/** One figure of one run. */
export interface Figure {
  /** Whose figure: `run`, `endpoint <name>`, `scenario <name>`, `tag <key>=<value>`, `check <name>`. */
  readonly scope: string;
  /** `requests`, `requests/s`, `failure rate`, `p50` … `p99`, `mean`, `pass rate`, `errors: <kind>`. */
  readonly name: string;
  readonly unit: FigureUnit;
  readonly value: number;
  /** A measured figure's relative standard error in its run (undefined: too few seconds). */
  readonly error?: number | undefined;
  /** A share's counts. */
  readonly share?: Share;
}

/** A run's errors of its per-second series, by the series. */
interface Errors {
  readonly requests: number | undefined;
  readonly p50: number | undefined;
  readonly p95: number | undefined;
  readonly p99: number | undefined;
}

/** The errors of one run's (or scenario's) seconds, its last (maybe partial) one left out. */
function errorsOf(figures: RunFigures): Errors {
  const full = figures.series.slice(0, -1);
  const of = (pick: (p: RunFigures['series'][number]) => number | null): number | undefined =>
    relativeError(full.map(pick).filter((v): v is number => v !== null));
  return {
    requests: of((p) => p.requests),
    p50: of((p) => p.p50_ms),
    p95: of((p) => p.p95_ms),
    p99: of((p) => p.p99_ms),
  };
}

/** Latency figures and the series whose error judges each. */
const LATENCY: readonly (readonly [
  name: string,
  key: 'p50' | 'p90' | 'p95' | 'p99' | 'mean',
  series: 'p50' | 'p95' | 'p99',
])[] = [
  ['p50', 'p50', 'p50'],
  ['p90', 'p90', 'p95'],
  ['p95', 'p95', 'p95'],
  ['p99', 'p99', 'p99'],
  ['mean', 'mean', 'p95'],
];

/** Requests, failures and latency of one group of requests (a run, an endpoint, a tag value). */
interface Requests {
  readonly requests: number;
  readonly failures: number;
  readonly latency: Readonly<Record<'p50' | 'p90' | 'p95' | 'p99' | 'mean', number>> | null;
}

/** The figures of one group of requests. */
function requestFigures(scope: string, group: Requests, errors: Errors): Figure[] {
  const figures: Figure[] = [
    { scope, name: 'requests', unit: 'count', value: group.requests, error: errors.requests },
  ];
  if (group.requests > 0)
    figures.push({
      scope,
      name: 'failure rate',
      unit: 'share',
      value: group.failures / group.requests,
      share: { x: group.failures, n: group.requests },
    });
  const latency = group.latency;
  if (latency !== null)
    for (const [name, key, series] of LATENCY)
      figures.push({ scope, name, unit: 'ms', value: latency[key], error: errors[series] });
  return figures;
}

/** The run-wide figures of a run or a scenario. */
function ownFigures(scope: string, figures: RunFigures, errors: Errors): Figure[] {
  const latency =
    figures.p50_latency_ms === null
      ? null
      : {
          p50: figures.p50_latency_ms,
          p90: figures.p90_latency_ms ?? 0,
          p95: figures.p95_latency_ms ?? 0,
          p99: figures.p99_latency_ms ?? 0,
          mean: figures.mean_latency_ms ?? 0,
        };
  const group = { requests: figures.total, failures: figures.failures, latency };
  const [requests, ...rest] = requestFigures(scope, group, errors);
  const rate: Figure = {
    scope,
    name: 'requests/s',
    unit: 'per_sec',
    value: figures.requests_per_sec,
    error: errors.requests,
  };
  return [requests!, rate, ...rest, ...llmFigures(scope, figures)];
}

/** The LLM trends compared: TTFT, ITL, TPOT and end-to-end latency, each at these percentiles. */
const LLM_TRENDS = [
  ['TTFT', 'time_to_first_token_ms'],
  ['ITL', 'inter_token_latency_ms'],
  ['TPOT', 'time_per_output_token_ms'],
  ['E2E', 'request_duration_ms'],
] as const;

/**
 * An LLM run's figures (docs/llm.md): its trends' p50, p95 and p99, output tokens per second of
 * the run and the goodput share. Their noise is not estimated (no per-second series of them), so
 * compare shows their change and leaves the verdict unknown, but for goodput, a share.
 */
function llmFigures(scope: string, figures: RunFigures): Figure[] {
  const llm = figures.llm;
  if (llm === undefined) return [];
  const out: Figure[] = [];
  for (const [name, key] of LLM_TRENDS) {
    const trend = llm[key];
    if (trend !== null)
      for (const p of ['p50', 'p95', 'p99'] as const)
        out.push({ scope, name: `${name} ${p}`, unit: 'ms', value: trend[p] });
  }
  const seconds = (figures.duration_ms ?? 0) / 1000;
  if (seconds > 0)
    out.push({
      scope,
      name: 'output tokens/s',
      unit: 'per_sec',
      value: llm.output_tokens / seconds,
    });
  const good = llm.goodput;
  if (good.total > 0)
    out.push({
      scope,
      name: 'goodput',
      unit: 'share',
      value: good.count / good.total,
      share: { x: good.count, n: good.total },
    });
  return out;
}

/** The error kinds and status codes of both runs, whose shares each run's figures list. */
export interface ShareKeys {
  readonly errors: readonly string[];
  readonly statuses: readonly string[];
}

/**
 * Every figure of a result, in the order reports show them; `keys` are the error kinds and
 * status codes of both runs (one a run did not have is a share of 0 there, not a missing figure).
 */
export function figuresOf(result: ResultFigures, keys: ShareKeys): Figure[] {
  const errors = errorsOf(result);
  const figures = ownFigures('run', result, errors);
  for (const e of result.endpoints)
    figures.push(...requestFigures(`endpoint ${e.name}`, withLatency(e), errors));
  for (const [name, scenario] of Object.entries(result.scenarios ?? {}))
    figures.push(...ownFigures(`scenario ${name}`, scenario, errorsOf(scenario)));
  for (const breakdown of result.by_tag ?? [])
    for (const v of breakdown.values)
      figures.push(...requestFigures(`tag ${breakdown.key}=${v.value}`, withLatency(v), errors));
  for (const [name, c] of Object.entries(result.checks?.by_name ?? {})) {
    const n = c.passes + c.fails;
    if (n > 0)
      figures.push({
        scope: `check ${name}`,
        name: 'pass rate',
        unit: 'share',
        value: c.passes / n,
        share: { x: c.passes, n },
      });
  }
  if (result.total > 0) {
    const share = (name: string, counts: Readonly<Record<string, number>>, key: string): void => {
      const count = Object.hasOwn(counts, key) ? counts[key]! : 0;
      figures.push({
        scope: 'run',
        name,
        unit: 'share',
        value: count / result.total,
        share: { x: count, n: result.total },
      });
    };
    for (const kind of keys.errors) share(`errors: ${kind}`, result.errors, kind);
    for (const code of keys.statuses) share(`status ${code}`, result.status_codes, code);
  }
  return figures;
}

/** A JSON endpoint or tag value as a group of requests. */
function withLatency(group: {
  readonly requests: number;
  readonly failures: number;
  readonly latency_ms: Readonly<Record<'p50' | 'p90' | 'p95' | 'p99' | 'mean', number>> | null;
}): Requests {
  return { requests: group.requests, failures: group.failures, latency: group.latency_ms };
}
