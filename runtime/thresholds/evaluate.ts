/**
 * Threshold evaluation (spec §4.4, DESIGN.md §6): each ThresholdSpec is measured on the final
 * snapshot and compared with its value. Pure: same specs and snapshot, same results.
 *
 * What each metric reads, untagged (the run's figures):
 *   http_req_duration     trend of service latency, ms
 *   http_req_failed       rate = failures / requests          count = failures
 *   http_requests         rate = requests / elapsed seconds   count = requests
 *   ws_connecting, ws_message_rtt, ws_session_duration        trends, ms
 *   ws_msgs_sent, ws_msgs_received   rate = messages / elapsed seconds   count = messages
 *   checks                rate = passes / (passes + fails)    count = passes (the true samples,
 *                         as http_req_failed:count counts its true samples, the failures)
 * Trend aggregates: pNN (0 < NN <= 100, the highest value equivalent to it), avg = mean, min, max.
 * A WebSocket session is one request (recorder.ts): untagged, http_requests and http_req_failed
 * count sessions too while http_req_duration is HTTP only.
 *
 * Tags (docs/configuration.md, Tags) select samples. A sample of a request carries its
 * scenario's tags and `scenario`, its endpoint's own tags (the run's, the endpoint's, a call's,
 * `method`, `group`) and `endpoint`, and its outcome's `status`, `error_kind` (failures only) and
 * `expected_response` (true when it did not fail); the figures of the matching endpoints, or of
 * their matching outcomes, are summed. Without an `endpoint` tag WebSocket endpoints are left out
 * of the HTTP metrics, as untagged; `{scenario=name}` alone reads that scenario's own figures
 * (rates per second of its own time; any other filter divides by the run's). Checks are kept per
 * run and by name: `{check=name}` reads one name's passes and fails.

 * No data (no requests; an empty histogram; no WebSocket session; no check) gives actual null
 * and fails: a gate that passes on nothing hides a broken test (k6 passes it; we do not).
 * Custom metrics are read by measure-custom.ts, from the same sources.
 * Comparisons use the unrounded value; `==` holds within a relative 1e-9:
 *   |actual − expected| <= 1e-9 · max(|actual|, |expected|)
 */
import { isBuiltinMetric, type Tags } from '../../dsl/plan/metrics.js';
import { DEFAULT_SCENARIO } from '../../dsl/plan/scenario-plan.js';
import type { ThresholdOperator, ThresholdSpec } from '../../dsl/plan/threshold-spec.js';
import {
  addEncoded,
  decodeHistogram,
  maxMs,
  meanMs,
  minMs,
  percentileMs,
} from '../metrics/histogram.js';
import { mergeEndpoints } from '../metrics/merge-stats.js';
import type {
  EncodedHistogram,
  EndpointSnapshot,
  OutcomeSnapshot,
  ShardSnapshot,
  WsSnapshot,
} from '../metrics/snapshot.js';
import { perSecond } from '../metrics/summarize.js';
import { measureCustom } from './measure-custom.js';
import type { ThresholdResult } from './threshold-result.js';

/** Relative tolerance of `==`. */
const EQUALITY_TOLERANCE = 1e-9;
const PERCENTILE = /^p(\d+(?:\.\d+)?)$/;

/** The tags of a run's endpoints and scenarios, which tagged thresholds match samples by. */
export interface RunTags {
  /** Each endpoint's own tags (method, group, user tags), by index as the endpoint names. */
  readonly endpoints: readonly Tags[];
  /** Each named scenario's tags. */
  readonly scenarios: Readonly<Record<string, Tags>>;
}

const NO_TAGS: RunTags = { endpoints: [], scenarios: {} };

/** One result per spec, in spec order. */
export function evaluateThresholds(
  specs: readonly ThresholdSpec[],
  snapshot: ShardSnapshot,
  endpointNames: readonly string[],
  tags: RunTags = NO_TAGS,
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

/** The HTTP figures a threshold reads: the run's, or those of the samples its tags select. */
interface HttpFigures {
  readonly requests: number;
  readonly failures: number;
  readonly latency: EncodedHistogram;
}

/** What a tagged threshold matches samples against. */
interface Table extends RunTags {
  readonly names: readonly string[];
}

/** The measured value of a spec, or null when its metric got no data. */
function measure(spec: ThresholdSpec, snapshot: ShardSnapshot, table: Table): number | null {
  const metric = spec.metric;
  const sources = sourcesOf(spec.tags, snapshot, table);
  if (sources.length === 0) return null;
  const elapsedMs =
    spec.tags.scenario === undefined ? snapshot.elapsedMs : sources[0]!.own.elapsedMs;
  // Custom metrics (measure-custom.ts) have their own path; the switch stays over built-ins.
  if (!isBuiltinMetric(metric)) return measureCustom(spec, sources, elapsedMs);
  switch (metric) {
    case 'http_req_duration':
    case 'http_req_failed':
    case 'http_requests': {
      const figures = httpFigures(spec, snapshot, sources, table);
      return figures === undefined ? null : measureHttp(spec, figures, elapsedMs);
    }
    case 'ws_connecting':
    case 'ws_message_rtt':
    case 'ws_session_duration':
    case 'ws_msgs_sent':
    case 'ws_msgs_received': {
      const ws = wsFigures(spec, snapshot, sources, table);
      return ws === undefined ? null : measureWs(spec, ws, elapsedMs);
    }
    case 'checks':
      return measureChecks(spec, sources);
  }
}

/** A snapshot whose samples a threshold may read, and the tags all its samples carry. */
interface Source {
  readonly own: ShardSnapshot;
  readonly tags: Tags;
}

/**
 * The snapshots a spec reads: with `{scenario=name}`, that scenario's own (`default` in a run of
 * the top-level form); else, when its other tags may be a scenario's, every scenario's, each with
 * its tags; else the run's.
 */
function sourcesOf(filter: Tags, snapshot: ShardSnapshot, table: Table): Source[] {
  const scenarios = snapshot.scenarios;
  const name = filter.scenario;
  if (scenarios === undefined) {
    if (name !== undefined && name !== DEFAULT_SCENARIO) return [];
    return [{ own: snapshot, tags: { scenario: DEFAULT_SCENARIO } }];
  }
  const all = Object.entries(scenarios).map(([scenario, own]) => ({
    own,
    tags: { ...table.scenarios[scenario], scenario },
  }));
  if (name !== undefined) return all.filter((s) => s.tags.scenario === name);
  const scenarioKeys = Object.keys(filter).some((key) =>
    all.some((s) => Object.hasOwn(s.tags, key)),
  );
  return scenarioKeys ? all : [{ own: snapshot, tags: {} }];
}

/** Tags that vary request by request: read from an endpoint's outcomes. */
const OUTCOME_TAGS: ReadonlySet<string> = new Set(['status', 'error_kind', 'expected_response']);

/** True when every filter tag but the outcome tags has its value in `tags`. */
function matches(filter: Tags, tags: Tags): boolean {
  for (const [key, value] of Object.entries(filter))
    if (!OUTCOME_TAGS.has(key) && tags[key] !== value) return false;
  return true;
}

/** True when an outcome has the filter's status, error kind and expected_response, if given. */
function outcomeMatches(filter: Tags, outcome: OutcomeSnapshot): boolean {
  const { status, error_kind: kind, expected_response: expected } = filter;
  if (status !== undefined && String(outcome.status) !== status) return false;
  if (kind !== undefined && outcome.error !== kind) return false;
  return expected === undefined || String(outcome.error === undefined) === expected;
}

/** Each endpoint of each source whose tags the filter matches, with those tags. */
function matchingEndpoints(
  filter: Tags,
  sources: readonly Source[],
  table: Table,
): { endpoint: EndpointSnapshot; tags: Tags }[] {
  const found: { endpoint: EndpointSnapshot; tags: Tags }[] = [];
  for (const source of sources)
    source.own.endpoints.forEach((endpoint, i) => {
      const name = table.names[i] ?? `#${i}`;
      const tags = { ...source.tags, ...table.endpoints[i], endpoint: name };
      if (matches(filter, tags)) found.push({ endpoint, tags });
    });
  return found;
}

/** The run's snapshot, or with `{scenario=name}` alone that scenario's: read whole, as is. */
function wholeOf(
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
): ShardSnapshot | undefined {
  const keys = Object.keys(filter);
  if (keys.length === 0) return snapshot;
  return keys.length === 1 && filter.scenario !== undefined ? sources[0]!.own : undefined;
}

/**
 * The run's HTTP figures (untagged), or the sum of the tagged endpoints'. Without an `endpoint`
 * tag, WebSocket endpoints are left out, as http_req_duration's run figure leaves them out; with
 * outcome tags, only the matching outcomes count. Undefined when nothing matches.
 */
function httpFigures(
  spec: ThresholdSpec,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: Table,
): HttpFigures | undefined {
  const filter = spec.tags;
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined) return whole;
  const byOutcome = Object.keys(filter).some((key) => OUTCOME_TAGS.has(key));
  const named = filter.endpoint !== undefined;
  const endpoints = matchingEndpoints(filter, sources, table).filter(
    ({ endpoint }) => named || endpoint.ws === undefined,
  );
  if (endpoints.length === 0) return undefined;
  if (!byOutcome) {
    const all = endpoints.map((e) => e.endpoint);
    return {
      requests: all.reduce((n, e) => n + e.requests, 0),
      failures: all.reduce((n, e) => n + e.failures, 0),
      latency: addEncoded(all.map((e) => e.latency)),
    };
  }
  const outcomes = endpoints.flatMap((e) =>
    e.endpoint.outcomes.filter((o) => outcomeMatches(filter, o)),
  );
  return {
    requests: outcomes.reduce((n, o) => n + o.requests, 0),
    failures: outcomes.reduce((n, o) => n + (o.error === undefined ? 0 : o.requests), 0),
    latency: addEncoded(outcomes.map((o) => o.latency)),
  };
}

/** The run's WebSocket figures (untagged), or the sum of the tagged endpoints'. */
function wsFigures(
  spec: ThresholdSpec,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: Table,
): WsSnapshot | undefined {
  const filter = spec.tags;
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined) return whole.ws;
  const endpoints = matchingEndpoints(filter, sources, table)
    .map((e) => e.endpoint)
    .filter((e) => e.ws !== undefined);
  return endpoints.length === 0 ? undefined : mergeEndpoints(endpoints).ws;
}

/** checks: every check's passes and fails, or with {check=name} one name's, over the sources. */
function measureChecks(spec: ThresholdSpec, sources: readonly Source[]): number | null {
  const name = spec.tags.check;
  let passes = 0;
  let fails = 0;
  for (const { own } of sources) {
    const all = own.checks;
    if (all === undefined) continue;
    const checks =
      name === undefined ? all : Object.hasOwn(all.byName, name) ? all.byName[name] : undefined;
    passes += checks?.passes ?? 0;
    fails += checks?.fails ?? 0;
  }
  const total = passes + fails;
  if (total === 0) return null;
  if (spec.aggregate === 'rate') return passes / total;
  return spec.aggregate === 'count' ? passes : null;
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
