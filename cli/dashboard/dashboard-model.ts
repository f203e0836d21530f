/**
 * What one dashboard frame shows, computed from the latest snapshot, the live state and the plan.
 * Pure: the screen layout (screen.ts) only arranges it. Definitions:
 *
 *   rates[s]      requests completed during whole second s of the run, for every second that has
 *                 ended (s < floor(elapsed / 1 s)); a second with none is 0
 *   progress      max(elapsed / run length, iterations / requests), clamped to 0..1, where the run
 *                 length is the shorter of `duration` and the pattern's length
 *   error rate    failures / requests over the run so far (what http_req_failed:rate gates on)
 *   busy          workers running an iteration / workers
 *   rate          requests of the last whole second / the pacer's rate now (open model only)
 *   endpoints     one row per name, as the final report has them (a TypeScript scenario's
 *                 requests of one name in several groups are one row): requests, failure rate and
 *                 service-time p50 / p95 / p99 over the run so far, ms; worst first (failure rate,
 *                 then p95, then requests), so the rows a small screen keeps are the ones to look
 *                 at. Past SORTED_BY_LATENCY rows the order is by failure rate and requests only,
 *                 and percentiles are decoded only for the rows the screen shows (a HAR import may
 *                 bring hundreds of endpoints; decoding one histogram costs ≈ 0.2 ms)
 *   latency       p50 and p95 of each ended second (latency-trend.ts)
 *   thresholds    evaluated on the snapshot as if the run ended now
 */
import type { Plan } from '../../model/plan/plan.js';
import { scenarioEndMs, topLevelLoad } from '../../model/plan/scenario-plan.js';
import { byName } from '../render/report-figures.js';
import { describeRunLoad } from '../render/scenario-view.js';
import { addHistogram, decodeHistogram, percentileMs } from '../../runtime/metrics/histogram.js';
import type {
  EncodedHistogram,
  EndpointSnapshot,
  ShardSnapshot,
} from '../../runtime/metrics/snapshot.js';
import { patternDurationMs } from '../../runtime/schedule/rate-function.js';
import type { LiveState } from '../../runtime/segment/live-state.js';
import { evaluateThresholds } from '../../runtime/thresholds/evaluate.js';
import { endpointTable } from '../endpoint-table.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';
import type { ErrorEvent } from './error-feed.js';
import type { LatencyTrend } from './latency-trend.js';
import { llmLive, type LlmLive } from './llm-live.js';
import { formatPercent, formatRate, formatSeconds } from './format.js';

/** How a gauge reads: normal, worth a look, or bad. */
export type Tone = 'ok' | 'warn' | 'bad';

/** One gauge: a fraction drawn as a bar, and its figures as text. */
export interface GaugeModel {
  readonly label: string;
  readonly fraction: number;
  readonly text: string;
  readonly tone: Tone;
}

/** A row of the status-code or error-kind table. */
export interface CountRow {
  readonly key: string;
  readonly count: number;
  /** count / requests. */
  readonly share: number;
}

/** Latency percentiles of an endpoint, ms. */
export interface Percentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

/** A row of the endpoint table. */
export interface EndpointRow {
  readonly name: string;
  readonly requests: number;
  readonly failureRate: number;
  /** Computed on first call (only shown rows pay for it); undefined before any response. */
  readonly percentiles: () => Percentiles | undefined;
}

/** Where the run is. */
export type RunState = 'starting' | 'running' | 'stopping';

/** Everything a frame shows. */
export interface DashboardModel {
  readonly title: string;
  /** Workers and pacing, e.g. `10 workers · 200/s`. */
  readonly load: string;
  readonly state: RunState;
  readonly elapsedMs: number;
  readonly rates: readonly number[];
  /** p50 and p95 of each ended second, ms. */
  readonly latency: LatencyTrend;
  readonly gauges: readonly GaugeModel[];
  readonly statusCodes: readonly CountRow[];
  readonly errorKinds: readonly CountRow[];
  readonly endpoints: readonly EndpointRow[];
  /** Named scenarios, as endpoint rows (none in a run of the top-level form). */
  readonly scenarios: readonly EndpointRow[];
  readonly thresholds: readonly ThresholdResult[];
  readonly latestErrors: readonly ErrorEvent[];
  /** TTFT and output tokens per second, once an LLM endpoint's request ended (llm-live.ts). */
  readonly llm: LlmLive | undefined;
}

/** What a frame is computed from. */
export interface ModelInput {
  readonly plan: Plan;
  readonly title: string;
  /** The names of the snapshot's endpoints, by index, as they may be shown. */
  readonly endpointNames: readonly string[];
  /** The snapshot's latency per second (SecondLatencies, which keeps what it decoded). */
  readonly latency: LatencyTrend;
  readonly snapshot: ShardSnapshot | undefined;
  readonly live: LiveState | undefined;
  readonly stopping: boolean;
  readonly latestErrors: readonly ErrorEvent[];
}

/** The frame's figures. */
export function buildModel(input: ModelInput): DashboardModel {
  const { plan, snapshot, live } = input;
  const rates = snapshot === undefined ? [] : ratesPerSecond(snapshot);
  const state: RunState = input.stopping
    ? 'stopping'
    : snapshot === undefined
      ? 'starting'
      : 'running';
  return {
    title: input.title,
    load: describeLoad(plan),
    state,
    elapsedMs: snapshot?.elapsedMs ?? 0,
    rates,
    latency: input.latency,
    gauges: gauges(plan, snapshot, live, rates),
    statusCodes: snapshot === undefined ? [] : statusRows(snapshot),
    errorKinds: snapshot === undefined ? [] : errorRows(snapshot),
    endpoints: snapshot === undefined ? [] : endpointRows(snapshot, input.endpointNames),
    scenarios: scenarioRows(snapshot),
    thresholds: snapshot === undefined ? [] : thresholdsOf(plan, snapshot),
    latestErrors: input.latestErrors,
    llm: llmLive(snapshot),
  };
}

/** The plan's thresholds on the live figures, samples matched by their names and tags. */
function thresholdsOf(plan: Plan, snapshot: ShardSnapshot): ThresholdResult[] {
  const table = endpointTable(plan, snapshot);
  return evaluateThresholds(plan.thresholds, snapshot, table.names, table);
}

/** Requests completed in each whole second that has ended. */
export function ratesPerSecond(snapshot: ShardSnapshot): number[] {
  const ended = Math.floor(snapshot.elapsedMs / 1000);
  const rates = new Array<number>(ended).fill(0);
  for (const s of snapshot.series) if (s.second < ended) rates[s.second] = s.requests;
  return rates;
}

/** How long dispatch lasts, ms; undefined when only a request count bounds the run. */
export function runLengthMs(plan: Plan): number | undefined {
  const top = topLevelLoad(plan.scenarios, plan.namedScenarios);
  if (top === undefined) {
    const ends = plan.scenarios.map(scenarioEndMs);
    return ends.every((end) => end !== undefined) ? Math.max(...ends) : undefined;
  }
  const pattern = top.rate.kind === 'pattern' ? patternDurationMs(top.rate.pattern) : undefined;
  if (top.durationMs === undefined) return pattern;
  return pattern === undefined ? top.durationMs : Math.min(top.durationMs, pattern);
}

function describeLoad(plan: Plan): string {
  const top = topLevelLoad(plan.scenarios, plan.namedScenarios);
  if (top === undefined) return describeRunLoad(plan).load;
  const workers = `${top.workers} worker${top.workers === 1 ? '' : 's'}`;
  switch (top.rate.kind) {
    case 'unlimited':
      return `${workers} · closed model`;
    case 'constant':
      return `${workers} · ${top.rate.rate}/s`;
    case 'pattern':
      return `${workers} · ${top.rate.pattern.type} pattern`;
  }
}

function gauges(
  plan: Plan,
  snapshot: ShardSnapshot | undefined,
  live: LiveState | undefined,
  rates: readonly number[],
): GaugeModel[] {
  const top = topLevelLoad(plan.scenarios, plan.namedScenarios);
  const requests = snapshot?.requests ?? 0;
  const failures = snapshot?.failures ?? 0;
  const errorRate = requests === 0 ? 0 : failures / requests;
  const list: GaugeModel[] = [
    progressGauge(plan, snapshot),
    {
      label: 'errors',
      fraction: errorRate,
      text: `${formatPercent(errorRate)}  ${failures} of ${requests}`,
      tone: failures === 0 ? 'ok' : 'bad',
    },
  ];
  const unsent = unsentGauge(snapshot);
  if (unsent !== undefined) list.push(unsent);
  const workers = live?.workers ?? describeRunLoad(plan).concurrency;
  const busy = live?.busy ?? 0;
  const openModel = plan.scenarios.some((s) => s.executor.kind === 'arrival-rate');
  list.push({
    label: 'busy',
    fraction: workers === 0 ? 0 : busy / workers,
    text: `${busy} of ${workers} workers · ${live?.inFlight ?? 0} in flight`,
    tone: openModel && busy === workers && workers > 0 ? 'warn' : 'ok',
  });
  const target = live?.targetRate;
  if (target !== undefined) {
    const current = rates[rates.length - 1] ?? 0;
    const fraction = target > 0 ? current / target : current > 0 ? 1 : 0;
    list.push({
      label: top?.rate.kind === 'pattern' ? top.rate.pattern.type : 'rate',
      fraction,
      text: `${formatRate(current)} of ${formatRate(target)} target`,
      tone: rates.length > 0 && target > 0 && fraction < 0.9 ? 'warn' : 'ok',
    });
  }
  return list;
}

function progressGauge(plan: Plan, snapshot: ShardSnapshot | undefined): GaugeModel {
  const elapsed = snapshot?.elapsedMs ?? 0;
  const lengthMs = runLengthMs(plan);
  const parts: string[] = [];
  let fraction = 0;
  if (lengthMs !== undefined) {
    fraction = Math.max(fraction, elapsed / lengthMs);
    parts.push(`${formatSeconds(elapsed)} of ${formatSeconds(lengthMs)}`);
  }
  const iterations = topLevelLoad(plan.scenarios, plan.namedScenarios)?.iterations;
  if (iterations !== undefined) {
    const done = snapshot?.iterations ?? 0;
    fraction = Math.max(fraction, done / iterations);
    parts.push(`${done} of ${iterations} iterations`);
  }
  fraction = Math.min(1, fraction);
  return {
    label: 'progress',
    fraction,
    text: `${Math.floor(fraction * 100)}%  ${parts.join(' · ')}`,
    tone: 'ok',
  };
}

/** Requests never sent, shown loudly with their most frequent cause (none: no gauge). */
function unsentGauge(snapshot: ShardSnapshot | undefined): GaugeModel | undefined {
  const causes = Object.entries(snapshot?.unsent ?? {}).sort((a, b) => b[1] - a[1]);
  if (causes.length === 0) return undefined;
  let unsent = 0;
  for (const [, n] of causes) unsent += n;
  const all = unsent + (snapshot?.requests ?? 0);
  return {
    label: 'unsent',
    fraction: unsent / all,
    text: `${unsent} never sent · ${causes[0]![0]}`,
    tone: 'bad',
  };
}

function statusRows(snapshot: ShardSnapshot): CountRow[] {
  return Object.entries(snapshot.statusCodes)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([key, count]) => ({ key, count, share: count / Math.max(1, snapshot.requests) }));
}

function errorRows(snapshot: ShardSnapshot): CountRow[] {
  return Object.entries(snapshot.errors)
    .sort(([a, x], [b, y]) => y - x || byName(a, b))
    .map(([key, count]) => ({ key, count, share: count / Math.max(1, snapshot.requests) }));
}

/** Rows sorted by their percentiles up to this many; past it, by failures and requests. */
export const SORTED_BY_LATENCY = 64;

function endpointRows(snapshot: ShardSnapshot, names: readonly string[]): EndpointRow[] {
  const groups = new Map<string, EndpointSnapshot[]>();
  snapshot.endpoints.forEach((e, i) => {
    const name = names[i] ?? `#${i}`;
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [e]);
    else group.push(e);
  });
  const rows = [...groups].map(([name, all]): EndpointRow => {
    let requests = 0;
    let failures = 0;
    for (const e of all) {
      requests += e.requests;
      failures += e.failures;
    }
    return {
      name,
      requests,
      failureRate: requests === 0 ? 0 : failures / requests,
      percentiles: once(() => percentiles(...all.map((e) => e.latency))),
    };
  });
  const byLatency = rows.length <= SORTED_BY_LATENCY;
  const p95 = (row: EndpointRow): number => (byLatency ? (row.percentiles()?.p95 ?? -1) : 0);
  return rows.sort(
    (a, b) => b.failureRate - a.failureRate || p95(b) - p95(a) || b.requests - a.requests,
  );
}

function scenarioRows(snapshot: ShardSnapshot | undefined): EndpointRow[] {
  return Object.entries(snapshot?.scenarios ?? {}).map(([name, s]) => ({
    name,
    requests: s.requests,
    failureRate: s.requests === 0 ? 0 : s.failures / s.requests,
    percentiles: once(() => percentiles(s.latency)),
  }));
}

/** The percentiles of the sum of `encoded`; undefined when none has a value. */
function percentiles(...encoded: EncodedHistogram[]): Percentiles | undefined {
  const filled = encoded.filter((e) => e !== '');
  if (filled.length === 0) return undefined;
  const histogram = decodeHistogram(filled[0]!);
  for (const more of filled.slice(1)) addHistogram(histogram, decodeHistogram(more));
  return {
    p50: percentileMs(histogram, 50),
    p95: percentileMs(histogram, 95),
    p99: percentileMs(histogram, 99),
  };
}

/** f, computed on the first call and remembered. */
function once<T>(f: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = f();
      done = true;
    }
    return value;
  };
}
