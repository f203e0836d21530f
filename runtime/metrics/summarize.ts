/**
 * The RunResult of a (merged) snapshot: counters as they are, histograms turned into
 * millisecond summaries, per-second series with their percentiles. Values are not rounded here;
 * reports round them for display.
 *
 *   requests_per_sec = requests / (elapsedMs / 1000)   (0 when nothing elapsed)
 *   checks.rate      = passes / (passes + fails)       (undefined without checks)
 *
 * The latency distribution is the service-time histogram read at fixed percentiles, for the
 * HTML report's percentile curve (latency-distribution.ts).
 */
import { protocolNames } from '../../model/http-protocols.js';
import type {
  AuthResult,
  ChecksResult,
  EndpointResult,
  RunResult,
  SecondResults,
  SeriesPoint,
  WsResult,
} from './run-result.js';
import type { CustomMetric } from '../../model/metrics/metric-registry.js';
import {
  FIGURES,
  SECOND_FIGURES,
  groupMembers,
  shownIn,
  type Figure,
} from '../../model/metrics/metric-figures.js';
import { secondField } from './second-figures.js';
import { overActiveSpan } from './active-span.js';
import type { EndpointFigureResults, FigureResult, RunFigureResults } from './figure-results.js';
import { figureValue, type FigureScope } from './figure-set.js';
import { mergeEndpoints } from './merge-stats.js';
import { customResults, metricWarnings } from './summarize-custom.js';
import { decodeHistogram, percentilesMs, summarizeEncoded } from './histogram.js';
import { latencyDistribution } from './latency-distribution.js';
import type {
  AuthSnapshot,
  ChecksSnapshot,
  Counts,
  EncodedHistogram,
  EndpointSnapshot,
  RateCounts,
  RunFigureSnapshot,
  SecondSnapshot,
  ShardSnapshot,
  WsSnapshot,
} from './snapshot.js';

/** Events per second over the run: count / (elapsedMs / 1000), 0 when nothing elapsed. */
export function perSecond(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? count / (elapsedMs / 1000) : 0;
}

/** The figures of a run from its snapshot; endpoints are named by index from endpointNames. */
export function summarize(
  snapshot: ShardSnapshot,
  endpointNames: readonly string[],
  declared: Readonly<Record<string, CustomMetric>> = {},
): RunResult {
  const latency = decodeHistogram(snapshot.latency);
  const metrics = customResults(snapshot, declared);
  const warnings = metricWarnings(snapshot);
  return {
    total: snapshot.requests,
    successes: snapshot.successes,
    failures: snapshot.failures,
    iterations: snapshot.iterations,
    duration_ms: snapshot.elapsedMs,
    requests_per_sec: perSecond(snapshot.requests, snapshot.elapsedMs),
    latency_ms: summarizeEncoded(snapshot.latency),
    intended_latency_ms: summarizeEncoded(snapshot.intended),
    ...(figureResults(snapshot, 'run') as RunFigureResults),
    ...(snapshot.vusMax === undefined ? {} : { vus_max: snapshot.vusMax }),
    ...vusSummary(snapshot),
    late: snapshot.late,
    dropped: snapshot.dropped,
    retries: snapshot.retries,
    redirects: snapshot.redirects,
    bytes_received: snapshot.bytesIn,
    bytes_decoded: snapshot.bytesDecoded,
    bytes_sent: snapshot.bytesOut,
    status_codes: snapshot.statusCodes,
    errors: snapshot.errors,
    unsent: sumOf(snapshot.unsent),
    unsent_errors: byKind(snapshot.unsent),
    unsent_causes: snapshot.unsent,
    iterations_failed: sumOf(snapshot.iterationErrors),
    iteration_errors: snapshot.iterationErrors,
    endpoints: byName(snapshot.endpoints, endpointNames).map(([name, all]) =>
      endpointResult(all.length === 1 ? all[0]! : mergeEndpoints(all), name),
    ),
    series: snapshot.series.map(seriesPoint),
    websocket: snapshot.ws === undefined ? undefined : wsResult(snapshot.ws),
    checks: snapshot.checks === undefined ? undefined : checksResult(snapshot.checks),
    auth: snapshot.auth === undefined ? undefined : authResult(snapshot.auth),
    interrupted: snapshot.interrupted,
    started_at: new Date(snapshot.startedAt).toISOString(),
    latency_distribution: latencyDistribution(latency),
    ...figureDistributions(snapshot),
    ...(snapshot.scenarios === undefined
      ? {}
      : {
          scenarios: Object.fromEntries(
            Object.entries(snapshot.scenarios).map(([name, own]) => [
              name,
              // A TypeScript scenario's own snapshot names the requests it met, in its order.
              // A scenario's rates are over its own active span (active-span.ts).
              summarize(overActiveSpan(own), own.endpointNames ?? endpointNames, declared),
            ]),
          ),
        }),
    ...(Object.keys(metrics).length === 0 ? {} : { metrics }),
    ...(warnings.length === 0 ? {} : { warnings }),
    ...(snapshot.sampleFailures === undefined ? {} : { sample_failures: snapshot.sampleFailures }),
  };
}

/**
 * Endpoints by name, in order of first index: a TypeScript scenario's requests of one name in
 * several groups or with several tags are one line of the reports (their tags tell them apart).
 */
function byName(
  endpoints: readonly EndpointSnapshot[],
  names: readonly string[],
): [string, EndpointSnapshot[]][] {
  const groups = new Map<string, EndpointSnapshot[]>();
  endpoints.forEach((e, i) => {
    const name = names[i] ?? `#${i}`;
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [e]);
    else group.push(e);
  });
  return [...groups];
}

function endpointResult(e: EndpointSnapshot, name: string): EndpointResult {
  return {
    name,
    requests: e.requests,
    failures: e.failures,
    latency_ms: summarizeEncoded(e.latency),
    ...(e.protocols === undefined ? {} : { protocols: protocolNames(e.protocols) }),
    status_codes: e.statusCodes,
    errors: e.errors,
    ...(e.ws === undefined ? {} : { websocket: wsResult(e.ws) }),
    ...(figureResults(e, 'endpoint') as EndpointFigureResults),
    ...(e.seconds === undefined ? {} : { seconds: e.seconds }),
  };
}

/** A figure's result: a trend's summary (undefined while empty), a count or a rate (0 when absent). */
function figureResult(fields: RunFigureSnapshot, figure: Figure): FigureResult | undefined {
  const value = figureValue(fields, figure);
  if (figure.shape === 'trend')
    return summarizeEncoded((value as EncodedHistogram | undefined) ?? '');
  if (figure.shape === 'counter') return (value as number | undefined) ?? 0;
  const [count, total] = (value as RateCounts | undefined) ?? [0, 0];
  return { rate: total === 0 ? undefined : count / total, count, total };
}

/**
 * The figure families' results of a snapshot's figures (figure-results.ts): each ungrouped one
 * at its key when it has data, each group as an object when any of its figures is there, its
 * counters first, then its trends.
 */
function figureResults(fields: RunFigureSnapshot, scope: FigureScope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shown = FIGURES.filter((f) => shownIn(f, scope));
  for (const figure of shown) {
    if (figure.group === undefined) {
      const result =
        figureValue(fields, figure) === undefined ? undefined : figureResult(fields, figure);
      if (result !== undefined) out[figure.key] = result;
      continue;
    }
    if (Object.hasOwn(out, figure.group)) continue;
    const members = groupMembers(figure.group);
    if (members.every((f) => figureValue(fields, f) === undefined)) continue;
    out[figure.group] = Object.fromEntries(members.map((f) => [f.key, figureResult(fields, f)]));
  }
  return out;
}

/** Active virtual users: at the last sample, and the least and most over the run's seconds. */
function vusSummary(snapshot: ShardSnapshot): Pick<RunResult, 'vus' | 'vus_series'> {
  const counts = (snapshot.vus ?? []).map((s) => s.active);
  if (counts.length === 0) return {};
  return {
    vus: { value: counts[counts.length - 1]!, min: Math.min(...counts), max: Math.max(...counts) },
    vus_series: snapshot.vus!,
  };
}

function seriesPoint(s: SecondSnapshot): SeriesPoint {
  const base = {
    second: s.second,
    requests: s.requests,
    failures: s.failures,
    ...secondResults(s),
  };
  if (s.latency === '') return { ...base, p50_ms: undefined, p95_ms: undefined, p99_ms: undefined };
  const [p50, p95, p99] = percentilesMs(decodeHistogram(s.latency), [50, 95, 99]);
  return { ...base, p50_ms: p50, p95_ms: p95, p99_ms: p99 };
}

/** The percentile curves of the run's trends marked `distribution` that have samples. */
function figureDistributions(snapshot: ShardSnapshot): Pick<RunResult, 'figure_distributions'> {
  const curves = FIGURES.filter((f) => f.spec.distribution === true).flatMap((f) => {
    const encoded = figureValue(snapshot, f);
    if (typeof encoded !== 'string' || encoded === '') return [];
    const curve = latencyDistribution(decodeHistogram(encoded));
    return curve.length === 0 ? [] : [[f.metric, curve] as const];
  });
  return curves.length === 0 ? {} : { figure_distributions: Object.fromEntries(curves) };
}

/** A second's figures kept second by second, at their result keys (FigureSpec.perSecond). */
function secondResults(s: SecondSnapshot): SecondResults {
  const out: Record<string, number> = {};
  for (const figure of SECOND_FIGURES) {
    const value = s[secondField(figure)];
    if (value !== undefined) out[figure.spec.perSecond!.result] = value;
  }
  return out;
}

function wsResult(ws: WsSnapshot): WsResult {
  return {
    sessions: ws.sessions,
    failures: ws.failures,
    msgs_sent: ws.msgsSent,
    msgs_received: ws.msgsReceived,
    msgs_taken: ws.msgsTaken,
    msgs_skipped: Math.max(0, ws.msgsReceived - ws.msgsTaken),
    listen_msgs: ws.listenMsgs,
    listen_rate: ws.listenUs > 0 ? ws.listenMsgs / (ws.listenUs / 1e6) : undefined,
    step_failures: ws.stepFailures,
    connecting_ms: summarizeEncoded(ws.connecting),
    message_rtt_ms: summarizeEncoded(ws.rtt),
    session_duration_ms: summarizeEncoded(ws.session),
  };
}

function checksResult(checks: ChecksSnapshot): ChecksResult {
  const total = checks.passes + checks.fails;
  return {
    passes: checks.passes,
    fails: checks.fails,
    rate: total === 0 ? undefined : checks.passes / total,
    by_name: checks.byName,
  };
}

function authResult(auth: AuthSnapshot): AuthResult {
  return {
    token_fetches: auth.fetches,
    failures: auth.failures,
    latency_ms: summarizeEncoded(auth.latency),
  };
}

function sumOf(counts: Counts): number {
  let total = 0;
  for (const n of Object.values(counts)) total += n;
  return total;
}

/** Unsent causes (`kind: where`) counted by their kind. */
function byKind(causes: Counts): Counts {
  const kinds: Record<string, number> = {};
  for (const [cause, n] of Object.entries(causes)) {
    const kind = cause.slice(0, cause.indexOf(':'));
    kinds[kind] = (kinds[kind] ?? 0) + n;
  }
  return kinds;
}
