/**
 * Threshold evaluation (spec §4.4, DESIGN.md §6): each ThresholdSpec is measured on the final
 * snapshot and compared with its value. Pure: same specs and snapshot, same results.
 *
 * What each metric reads (with {endpoint=name}, the named endpoint's figures; an unknown name
 * gives no data):
 *   http_req_duration     trend of service latency, ms
 *   http_req_failed       rate = failures / requests          count = failures
 *   http_requests         rate = requests / elapsed seconds   count = requests
 *   ws_connecting, ws_message_rtt, ws_session_duration        trends, ms
 *   ws_msgs_sent, ws_msgs_received   rate = messages / elapsed seconds   count = messages
 *   checks                rate = passes / (passes + fails)    count = passes (the true samples,
 *                         as http_req_failed:count counts its true samples, the failures);
 *                         with {check=name}, that check's
 * Trend aggregates: pNN (0 < NN <= 100, the highest value equivalent to it), avg = mean, min, max.
 * A WebSocket session is one request (recorder.ts): untagged, http_requests and http_req_failed
 * count sessions too while http_req_duration is HTTP only; tagged with a ws:// endpoint, they read
 * its sessions and their durations. WebSocket metrics read the run's figures or, tagged, the
 * endpoint's. Checks are kept per run and by name: {check=name} reads one name's passes and
 * fails (a name no check ran under has no data). With {scenario=name}, every metric reads that
 * scenario's own figures (its snapshot among the run's `scenarios`; an unknown name gives no data).
 *
 * No data (no requests; an empty histogram; no WebSocket session; no check) gives actual null
 * and fails: a gate that passes on nothing hides a broken test (k6 passes it; we do not).
 * Comparisons use the unrounded value; `==` holds within a relative 1e-9:
 *   |actual − expected| <= 1e-9 · max(|actual|, |expected|)
 */
import type { ThresholdOperator, ThresholdSpec } from '../../dsl/plan/threshold-spec.js';
import { decodeHistogram, maxMs, meanMs, minMs, percentileMs } from '../metrics/histogram.js';
import type { EncodedHistogram, ShardSnapshot, WsSnapshot } from '../metrics/snapshot.js';
import { perSecond } from '../metrics/summarize.js';
import type { ThresholdResult } from './threshold-result.js';

/** Relative tolerance of `==`. */
const EQUALITY_TOLERANCE = 1e-9;
const PERCENTILE = /^p(\d+(?:\.\d+)?)$/;

/** One result per spec, in spec order. */
export function evaluateThresholds(
  specs: readonly ThresholdSpec[],
  snapshot: ShardSnapshot,
  endpointNames: readonly string[],
): ThresholdResult[] {
  return specs.map((spec) => {
    const scenario = spec.tags.scenario;
    const own = scenario === undefined ? snapshot : snapshot.scenarios?.[scenario];
    const actual = own === undefined ? null : measure(spec, own, endpointNames);
    return {
      threshold: spec.expression,
      metric: spec.metric,
      aggregate: spec.aggregate,
      operator: spec.operator,
      expected: spec.expected,
      actual,
      pass: actual !== null && thresholdHolds(actual, spec.operator, spec.expected),
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

/** The HTTP figures a threshold reads: the run's, or one endpoint's. */
interface HttpFigures {
  readonly requests: number;
  readonly failures: number;
  readonly latency: EncodedHistogram;
}

/** The measured value of a spec, or null when its metric got no data. */
function measure(
  spec: ThresholdSpec,
  snapshot: ShardSnapshot,
  names: readonly string[],
): number | null {
  switch (spec.metric) {
    case 'http_req_duration':
    case 'http_req_failed':
    case 'http_requests': {
      const figures = httpFigures(spec, snapshot, names);
      return figures === undefined ? null : measureHttp(spec, figures, snapshot.elapsedMs);
    }
    case 'ws_connecting':
    case 'ws_message_rtt':
    case 'ws_session_duration':
    case 'ws_msgs_sent':
    case 'ws_msgs_received': {
      const ws = wsFigures(spec, snapshot, names);
      return ws === undefined ? null : measureWs(spec, ws, snapshot.elapsedMs);
    }
    case 'checks': {
      const name = spec.tags.check;
      const all = snapshot.checks;
      const checks =
        name === undefined || all === undefined
          ? all
          : Object.hasOwn(all.byName, name)
            ? all.byName[name]
            : undefined;
      const total = checks === undefined ? 0 : checks.passes + checks.fails;
      if (checks === undefined || total === 0) return null;
      if (spec.aggregate === 'rate') return checks.passes / total;
      return spec.aggregate === 'count' ? checks.passes : null;
    }
    default:
      return null;
  }
}

/** The run's HTTP figures, or the tagged endpoint's; undefined for an unknown endpoint name. */
function httpFigures(
  spec: ThresholdSpec,
  snapshot: ShardSnapshot,
  names: readonly string[],
): HttpFigures | undefined {
  const name = spec.tags.endpoint;
  if (name === undefined) return snapshot;
  const index = names.indexOf(name);
  return index < 0 ? undefined : snapshot.endpoints[index];
}

/** The run's WebSocket figures, or the tagged endpoint's; undefined when there are none. */
function wsFigures(
  spec: ThresholdSpec,
  snapshot: ShardSnapshot,
  names: readonly string[],
): WsSnapshot | undefined {
  const name = spec.tags.endpoint;
  if (name === undefined) return snapshot.ws;
  const index = names.indexOf(name);
  return index < 0 ? undefined : snapshot.endpoints[index]?.ws;
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
  return counter(spec, spec.metric === 'ws_msgs_sent' ? ws.msgsSent : ws.msgsReceived, elapsedMs);
}

function measureHttp(spec: ThresholdSpec, figures: HttpFigures, elapsedMs: number): number | null {
  if (spec.metric === 'http_req_duration') return trend(spec, figures.latency);
  if (figures.requests === 0) return null;
  if (spec.metric === 'http_requests') return counter(spec, figures.requests, elapsedMs);
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
