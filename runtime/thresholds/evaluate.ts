/**
 * Threshold evaluation (spec §4.4, DESIGN.md §6): each ThresholdSpec is measured on the final
 * snapshot and compared with its value. Pure: same specs and snapshot, same results.
 *
 * What each metric reads, untagged (the run's figures):
 *   http_req_duration     trend of service latency, ms
 *   http_req_waiting      trend of time to first byte (requests that got headers), ms
 *   http_req_connecting, http_req_tls_handshaking   trends of connection set-up (requests that
 *                         opened a connection; TLS ones for the handshake), ms
 *   sse_time_to_first_event, sse_event_gap   trends of stream endpoints' events, ms
 *   sse_events            count = events received   rate = count / elapsed seconds
 *   stream_time_to_first_chunk, stream_chunk_gap   trends of chunked streams' chunks, ms
 *   stream_chunks         count = chunks received   rate = count / elapsed seconds
 *   http_req_failed       rate = failures / requests          count = failures
 *   http_requests         rate = requests / elapsed seconds   count = requests
 *   http_reqs             as http_requests, WebSocket sessions left out (k6's meaning)
 *   ws_connecting, ws_message_rtt, ws_session_duration        trends, ms
 *   ws_msgs_sent, ws_msgs_received   rate = messages / elapsed seconds   count = messages
 *   ws_sessions           rate = sessions / elapsed seconds   count = sessions
 *   checks                rate = passes / (passes + fails)    count = passes (the true samples,
 *                         as http_req_failed:count counts its true samples, the failures)
 *   data_received, data_sent (bytes), iterations, dropped_iterations
 *                         count = the run's total   rate = count / elapsed seconds
 *   iteration_duration    trend of iterations' durations, ms
 *   vus_max               value = max = virtual users allocated, summed over the sources
 * Trend aggregates: pNN (0 < NN <= 100, the highest value equivalent to it), avg = mean, min, max.
 * A WebSocket session is one request (recorder.ts): untagged, http_requests and http_req_failed
 * count sessions too while http_req_duration is HTTP only.
 *
 * Tags select samples (metrics/sample-select.ts); `{scenario=name}` alone reads that scenario's
 * own figures (rates per second of its active span, active-span.ts; any other filter divides by the
 * run's time). Checks
 * are kept per run, by name and by name and tags: `{check=name}` reads one name's passes and
 * fails, other tags the checks counted under tags.
 *
 * No data (no requests; an empty histogram; no WebSocket session; no check) gives actual null
 * and fails: a gate that passes on nothing hides a broken test (k6 passes it; we do not).
 * Custom metrics are read by measure-custom.ts, from the same sources.
 * Comparisons use the unrounded value; `==` holds within a relative 1e-9:
 *   |actual − expected| <= 1e-9 · max(|actual|, |expected|)
 */
import { figureOf, type Figure } from '../../model/metrics/metric-figures.js';
import {
  BUILTIN_METRICS,
  isBuiltinMetric,
  type BuiltinDeclaration,
  type Tags,
} from '../../model/metrics/metric-registry.js';
import type { ThresholdOperator, ThresholdSpec } from '../../model/plan/threshold-spec.js';
import {
  addEncoded,
  decodeHistogram,
  maxMs,
  meanMs,
  minMs,
  percentileMs,
} from '../metrics/histogram.js';
import {
  endpointCount,
  endpointRate,
  endpointTrend,
  httpFigures,
  matches,
  NO_RUN_TAGS,
  sourcesOf,
  wsFigures,
  type HttpFigures,
  type RunTags,
  type SampleTable,
  type Source,
} from '../metrics/sample-select.js';
import { sumVus } from '../metrics/merge-stats.js';
import type {
  ChecksSnapshot,
  EncodedHistogram,
  ShardSnapshot,
  WsSnapshot,
} from '../metrics/snapshot.js';
import { figureValue } from '../metrics/figure-set.js';
import { perSecond } from '../metrics/summarize.js';
import { overActiveSpan } from '../metrics/active-span.js';
import { measureCustom } from './measure-custom.js';
import type { ThresholdResult } from './threshold-result.js';

/** Relative tolerance of `==`. */
const EQUALITY_TOLERANCE = 1e-9;
const PERCENTILE = /^p(\d+(?:\.\d+)?)$/;

/** One result per spec, in spec order. */
export function evaluateThresholds(
  specs: readonly ThresholdSpec[],
  snapshot: ShardSnapshot,
  endpointNames: readonly string[],
  tags: RunTags = NO_RUN_TAGS,
): ThresholdResult[] {
  return specs.map((spec) => {
    const actual = measure(spec, snapshot, { names: endpointNames, ...tags });
    return {
      threshold: spec.expression,
      metric: spec.metric,
      aggregate: spec.aggregate,
      operator: spec.operator,
      expected: spec.expected,
      actual,
      pass: actual !== null && thresholdHolds(actual, spec.operator, spec.expected),
      ...(spec.relative?.baseline === undefined ? {} : { baseline: spec.relative.baseline }),
    };
  });
}

/** Whether `actual <op> expected` holds (`==` within a relative 1e-9). */
export function thresholdHolds(
  actual: number,
  operator: ThresholdOperator,
  expected: number,
): boolean {
  switch (operator) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '==':
      return (
        Math.abs(actual - expected) <=
        EQUALITY_TOLERANCE * Math.max(Math.abs(actual), Math.abs(expected))
      );
  }
}

/** The measured value of a spec, or null when its metric got no data. */
function measure(spec: ThresholdSpec, snapshot: ShardSnapshot, table: SampleTable): number | null {
  const metric = spec.metric;
  const sources = sourcesOf(spec.tags, snapshot, table);
  if (sources.length === 0) return null;
  // A scenario's rates are over its own active span, as its reports are (active-span.ts).
  const elapsedMs =
    spec.tags.scenario === undefined
      ? snapshot.elapsedMs
      : overActiveSpan(sources[0]!.own).elapsedMs;
  // Custom metrics (measure-custom.ts) have their own path; the switch is over the families.
  if (!isBuiltinMetric(metric)) return measureCustom(spec, sources, elapsedMs);
  const row: BuiltinDeclaration = BUILTIN_METRICS[metric];
  switch (row.family) {
    case 'request': {
      const sessions = metric !== 'http_reqs';
      const figures = httpFigures(spec.tags, snapshot, sources, table, sessions);
      return figures === undefined ? null : measureHttp(spec, figures, elapsedMs);
    }
    case 'websocket': {
      const ws = wsFigures(spec.tags, snapshot, sources, table);
      return ws === undefined ? null : measureWs(spec, ws, elapsedMs);
    }
    case 'checks':
      return measureChecks(spec, sources, table);
    case 'vus':
      return metric === 'vus_max' ? vusMax(sources) : activeVus(spec, sources);
  }
  return measureFigure(spec, figureOf(metric)!, { snapshot, sources, table, elapsedMs });
}

/** What a figure family's metric is measured over. */
interface FigureScope {
  readonly snapshot: ShardSnapshot;
  readonly sources: readonly Source[];
  readonly table: SampleTable;
  readonly elapsedMs: number;
}

/** A figure family's metric (model/metrics/metric-figures.ts), by its family. */
function measureFigure(spec: ThresholdSpec, figure: Figure, scope: FigureScope): number | null {
  const { snapshot, sources, table, elapsedMs } = scope;
  switch (figure.family) {
    case 'endpoint-trend': {
      const figures = endpointTrend(figure, spec.tags, snapshot, sources, table);
      return figures === undefined ? null : trend(spec, figures);
    }
    case 'endpoint-counter': {
      const count = endpointCount(figure, spec.tags, snapshot, sources, table);
      return count === undefined ? null : counter(spec, count, elapsedMs);
    }
    case 'endpoint-rate': {
      const counts = endpointRate(figure, spec.tags, snapshot, sources, table);
      if (counts === undefined || counts[1] === 0) return null;
      if (spec.aggregate === 'rate') return counts[0] / counts[1];
      return spec.aggregate === 'count' ? counts[0] : null;
    }
    case 'run-trend':
      return trend(
        spec,
        addEncoded(sources.map((s) => (figureValue(s.own, figure) as string | undefined) ?? '')),
      );
    case 'run-counter': {
      const counts = sources.map((s) => figureValue(s.own, figure) as number | undefined);
      // A core counter is always there; another's absence everywhere is no data.
      if (figure.spec.core !== true && counts.every((c) => c === undefined)) return null;
      return counter(
        spec,
        counts.reduce<number>((a, c) => a + (c ?? 0), 0),
        elapsedMs,
      );
    }
  }
}

/** Passes and fails of some checks. */
interface CheckCounts {
  readonly passes: number;
  readonly fails: number;
}

/** Virtual users allocated over the sources (value and max alike); null from older raw files. */
function vusMax(sources: readonly Source[]): number | null {
  if (sources.every((s) => s.own.vusMax === undefined)) return null;
  return total(sources, (s) => s.vusMax ?? 0);
}

/**
 * vus: the sources' samples summed second by second; value = the last second's, min and max over
 * the seconds. Null when none was sampled (a run shorter than a second).
 */
function activeVus(spec: ThresholdSpec, sources: readonly Source[]): number | null {
  const counts = sumVus(sources.map((s) => s.own)).map((s) => s.active);
  if (counts.length === 0) return null;
  if (spec.aggregate === 'min') return Math.min(...counts);
  if (spec.aggregate === 'max') return Math.max(...counts);
  return counts[counts.length - 1]!;
}

/** A figure summed over the sources' snapshots. */
function total(sources: readonly Source[], of: (s: ShardSnapshot) => number): number {
  return sources.reduce((sum, source) => sum + of(source.own), 0);
}

/**
 * checks: every check's passes and fails over the sources, or with {check=name} one name's; with
 * other tags, those of the checks counted under tags (an endpoint's checks carry its name, whose
 * tags the table has; a scenario's, its group and call tags; all, the run's).
 */
function measureChecks(
  spec: ThresholdSpec,
  sources: readonly Source[],
  table: SampleTable,
): number | null {
  const filter = spec.tags;
  const byName = Object.keys(filter).every((key) => key === 'check' || key === 'scenario');
  let passes = 0;
  let fails = 0;
  for (const { own, tags } of sources) {
    const all = own.checks;
    if (all === undefined) continue;
    const counted = byName
      ? checksByName(all, filter.check)
      : checksByTags(all, filter, tags, table);
    for (const c of counted) {
      passes += c.passes;
      fails += c.fails;
    }
  }
  const total = passes + fails;
  if (total === 0) return null;
  if (spec.aggregate === 'rate') return passes / total;
  return spec.aggregate === 'count' ? passes : null;
}

/** All checks, or one name's. */
function checksByName(all: ChecksSnapshot, name: string | undefined): readonly CheckCounts[] {
  if (name === undefined) return [all];
  return Object.hasOwn(all.byName, name) ? [all.byName[name]!] : [];
}

/** The checks counted under tags that match the filter. */
function checksByTags(
  all: ChecksSnapshot,
  filter: Tags,
  source: Tags,
  table: SampleTable,
): readonly CheckCounts[] {
  return (all.tagged ?? []).filter((c) => {
    const endpoint = c.tags.endpoint;
    const index = endpoint === undefined ? -1 : table.names.indexOf(endpoint);
    const own = index < 0 ? {} : table.endpoints[index];
    return matches(filter, { ...table.run, ...source, ...own, ...c.tags, check: c.name });
  });
}

function measureWs(spec: ThresholdSpec, ws: WsSnapshot, elapsedMs: number): number | null {
  switch (spec.metric) {
    case 'ws_connecting':
      return trend(spec, ws.connecting);
    case 'ws_message_rtt':
      return trend(spec, ws.rtt);
    case 'ws_session_duration':
      return trend(spec, ws.session);
  }
  if (ws.sessions === 0) return null;
  if (spec.metric === 'ws_sessions') return counter(spec, ws.sessions, elapsedMs);
  return counter(spec, spec.metric === 'ws_msgs_sent' ? ws.msgsSent : ws.msgsReceived, elapsedMs);
}

function measureHttp(spec: ThresholdSpec, figures: HttpFigures, elapsedMs: number): number | null {
  if (spec.metric === 'http_req_duration') return trend(spec, figures.latency);
  if (figures.requests === 0) return null;
  if (spec.metric === 'http_requests' || spec.metric === 'http_reqs')
    return counter(spec, figures.requests, elapsedMs);
  if (spec.aggregate === 'rate') return figures.failures / figures.requests;
  return spec.aggregate === 'count' ? figures.failures : null;
}

/** count, or rate = count per second of the run. */
function counter(spec: ThresholdSpec, count: number, elapsedMs: number): number | null {
  if (spec.aggregate === 'count') return count;
  return spec.aggregate === 'rate' ? perSecond(count, elapsedMs) : null;
}

/** A trend aggregate in ms; null for an empty histogram. */
function trend(spec: ThresholdSpec, encoded: EncodedHistogram): number | null {
  if (encoded === '') return null;
  const histogram = decodeHistogram(encoded);
  switch (spec.aggregate) {
    case 'avg':
    case 'mean':
      return meanMs(histogram);
    case 'min':
      return minMs(histogram);
    case 'max':
      return maxMs(histogram);
  }
  const percentile = spec.percentile ?? Number(PERCENTILE.exec(spec.aggregate)?.[1]);
  if (!(percentile > 0 && percentile <= 100)) return null;
  return percentileMs(histogram, percentile);
}
