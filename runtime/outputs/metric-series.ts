/**
 * A snapshot as the series live outputs send (docs/outputs.md): one series per metric and distinct
 * set of tags, each holding its figures since the run began. The tags are those a threshold
 * matches samples by (sample-select.ts): the run's, the scenario's, an endpoint's own and its name,
 * and per outcome `status`, `error_kind` and `expected_response`.
 *
 *   http_requests, http_req_failed, http_req_duration, http_reqs (HTTP endpoints only)
 *                                                       per endpoint and outcome
 *   the endpoint figure families (http_req_waiting, sse_*, stream_*…)   per endpoint
 *   ws_*                                                per WebSocket endpoint
 *   the run figure families (iterations, iteration_duration, data_*, dropped_iterations…),
 *   vus, vus_max                                        per scenario
 *   checks                                              per check name and tags
 *   custom metrics                                      per series (custom-snapshot.ts)
 *
 * A WebSocket endpoint's sessions count as requests (the registry's rule) but their lengths are
 * ws_session_duration, not http_req_duration, as the run's own HTTP latency leaves them out.
 */
import { FIGURES } from '../../model/metrics/metric-figures.js';
import {
  BUILTIN_METRICS,
  customDeclaration,
  type BuiltinMetric,
  type CustomMetric,
  type FigureFamily,
  type MetricKind,
  type MetricUnit,
  type Tags,
} from '../../model/metrics/metric-registry.js';
import { DEFAULT_SCENARIO } from '../../model/plan/scenario-plan.js';
import { decodeTrend } from '../metrics/custom-histogram.js';
import { figureValue } from '../metrics/figure-set.js';
import { decodeHistogram, type MicrosHistogram } from '../metrics/histogram.js';
import { endpointTagsOf, type SampleTable } from '../metrics/sample-select.js';
import type {
  ChecksSnapshot,
  EncodedHistogram,
  EndpointSnapshot,
  RateCounts,
  RunFigureSnapshot,
  ShardSnapshot,
} from '../metrics/snapshot.js';

/** Trend values are recorded × TREND_SCALE: µs of a millisecond metric, or a custom trend's scale. */
export const TREND_SCALE = 1000;

/** A trend's samples: an HDR histogram of values × TREND_SCALE, in one of two layouts. */
export interface TrendSamples {
  readonly encoded: EncodedHistogram;
  /** `micros`: barrage's own latencies (histogram.ts); `custom`: a custom trend's. */
  readonly layout: 'micros' | 'custom';
}

/** One metric's figures under one set of tags, since the run began. */
export interface Series {
  readonly metric: string;
  readonly kind: MetricKind;
  readonly unit: MetricUnit;
  readonly description: string;
  readonly tags: Tags;
  /** counter: the sum; rate: the samples; trend and gauge: 0 (a trend's are its histogram's). */
  readonly count: number;
  /** rate: the samples that were true. */
  readonly trues: number;
  /** gauge: the value now, and the least and most it held. */
  readonly value: number;
  readonly min: number;
  readonly max: number;
  /** trend: its samples. */
  readonly trend?: TrendSamples;
}

/** The decoded histogram of a trend's samples (values × TREND_SCALE). */
export function decodeSamples(samples: TrendSamples): MicrosHistogram {
  return samples.layout === 'micros'
    ? decodeHistogram(samples.encoded)
    : decodeTrend(samples.encoded);
}

/** Every series of a snapshot. */
export function metricSeries(
  snapshot: ShardSnapshot,
  table: SampleTable,
  metrics: Readonly<Record<string, CustomMetric>>,
): Series[] {
  const out: Series[] = [];
  for (const source of sourcesOf(snapshot, table)) {
    const own = source.own;
    const runTags = { ...table.run, ...source.tags };
    own.endpoints.forEach((endpoint, i) => {
      endpointSeries(out, endpoint, { ...runTags, ...endpointTagsOf(own, i, table) });
    });
    figureSeries(out, own, RUN_FAMILIES, runTags);
    if (own.vusMax !== undefined) out.push(gauge('vus_max', runTags, [own.vusMax]));
    if (own.vus !== undefined && own.vus.length > 0)
      out.push(
        gauge(
          'vus',
          runTags,
          own.vus.map((v) => v.active),
        ),
      );
    if (own.checks !== undefined) checkSeries(out, own.checks, runTags);
    for (const [metric, custom] of Object.entries(own.custom ?? {})) {
      const declared = metrics[metric];
      const declaration = customDeclaration(
        declared ?? { kind: custom.kind, unit: 'none', description: '' },
      );
      for (const series of custom.series)
        out.push({
          metric,
          kind: custom.kind,
          unit: declaration.unit,
          description: declaration.description,
          tags: { ...runTags, ...series.tags },
          count:
            custom.kind === 'counter' ? series.sum : custom.kind === 'rate' ? series.samples : 0,
          trues: series.trues,
          value: series.last,
          min: series.min,
          max: series.max,
          ...(custom.kind === 'trend'
            ? { trend: { encoded: series.histogram, layout: 'custom' as const } }
            : {}),
        });
    }
  }
  return out;
}

/** The snapshots whose endpoints are disjoint: each named scenario's, or the run's as `default`. */
function sourcesOf(
  snapshot: ShardSnapshot,
  table: SampleTable,
): { own: ShardSnapshot; tags: Tags }[] {
  if (snapshot.scenarios === undefined)
    return [{ own: snapshot, tags: { scenario: DEFAULT_SCENARIO } }];
  return Object.entries(snapshot.scenarios).map(([scenario, own]) => ({
    own,
    tags: { ...table.scenarios[scenario], scenario },
  }));
}

/** An endpoint's series: requests per outcome, its per-endpoint trends, its WebSocket figures. */
function endpointSeries(out: Series[], endpoint: EndpointSnapshot, tags: Tags): void {
  const ws = endpoint.ws;
  for (const outcome of endpoint.outcomes) {
    const outcomeTags: Tags = {
      ...tags,
      status: String(outcome.status),
      expected_response: String(outcome.error === undefined),
      ...(outcome.error === undefined ? {} : { error_kind: outcome.error }),
      ...(outcome.retry === true ? { retry: 'true' } : {}),
      ...(outcome.redirect === true ? { redirect: 'true' } : {}),
    };
    const failed = outcome.error === undefined ? 0 : outcome.requests;
    out.push(
      builtin('http_requests', outcomeTags, { count: outcome.requests }),
      builtin('http_req_failed', outcomeTags, { count: outcome.requests, trues: failed }),
    );
    if (ws !== undefined) continue;
    out.push(builtin('http_reqs', outcomeTags, { count: outcome.requests }));
    pushTrend(out, 'http_req_duration', outcomeTags, outcome.latency);
  }
  figureSeries(out, endpoint, ENDPOINT_FAMILIES, tags);
  if (ws === undefined) return;
  const wsTags = withoutMethod(tags);
  out.push(
    builtin('ws_sessions', wsTags, { count: ws.sessions }),
    builtin('ws_msgs_sent', wsTags, { count: ws.msgsSent }),
    builtin('ws_msgs_received', wsTags, { count: ws.msgsReceived }),
  );
  pushTrend(out, 'ws_connecting', wsTags, ws.connecting);
  pushTrend(out, 'ws_message_rtt', wsTags, ws.rtt);
  pushTrend(out, 'ws_session_duration', wsTags, ws.session);
}

/** The figure families sent per endpoint, and per scenario (model/metrics/metric-figures.ts). */
const ENDPOINT_FAMILIES: readonly FigureFamily[] = [
  'endpoint-trend',
  'endpoint-counter',
  'endpoint-rate',
];
const RUN_FAMILIES: readonly FigureFamily[] = ['run-trend', 'run-counter'];

/**
 * The series of the figure families' metrics of `families` in a snapshot (an endpoint's, or a
 * scenario's own): a trend's when it has samples, a counter's when it is there (a core counter's
 * always).
 */
function figureSeries(
  out: Series[],
  figures: RunFigureSnapshot,
  families: readonly FigureFamily[],
  tags: Tags,
): void {
  for (const figure of FIGURES) {
    if (!families.includes(figure.family)) continue;
    const value = figureValue(figures, figure);
    if (figure.shape === 'trend') pushTrend(out, figure.metric, tags, value as string | undefined);
    else if (value === undefined) continue;
    else if (figure.shape === 'counter')
      out.push(builtin(figure.metric, tags, { count: value as number }));
    else {
      const [trues, total] = value as RateCounts;
      out.push(builtin(figure.metric, tags, { count: total, trues }));
    }
  }
}

/** WebSocket figures carry no method (the registry's WS_TAGS). */
function withoutMethod(tags: Tags): Tags {
  const { method: _method, ...rest } = tags;
  return rest;
}

/**
 * Checks by name and tags: those counted under tags as such, and the rest of each name's (its
 * untagged results) under `check` alone, so the series add up to the checks' totals.
 */
function checkSeries(out: Series[], checks: ChecksSnapshot, tags: Tags): void {
  const taggedByName = new Map<string, { passes: number; fails: number }>();
  for (const c of checks.tagged ?? []) {
    out.push(checkRate({ ...tags, ...c.tags, check: c.name }, c.passes, c.fails));
    const sum = taggedByName.get(c.name) ?? { passes: 0, fails: 0 };
    taggedByName.set(c.name, { passes: sum.passes + c.passes, fails: sum.fails + c.fails });
  }
  for (const [name, all] of Object.entries(checks.byName)) {
    const tagged = taggedByName.get(name) ?? { passes: 0, fails: 0 };
    const passes = all.passes - tagged.passes;
    const fails = all.fails - tagged.fails;
    if (passes + fails > 0) out.push(checkRate({ ...tags, check: name }, passes, fails));
  }
}

function checkRate(tags: Tags, passes: number, fails: number): Series {
  return builtin('checks', tags, { count: passes + fails, trues: passes });
}

/** A built-in metric's series, its kind, unit and description from the registry. */
function builtin(
  metric: BuiltinMetric,
  tags: Tags,
  figures: Partial<Pick<Series, 'count' | 'trues' | 'value' | 'min' | 'max' | 'trend'>>,
): Series {
  const declaration = BUILTIN_METRICS[metric];
  return {
    metric,
    kind: declaration.kind,
    unit: declaration.unit,
    description: declaration.description,
    tags,
    count: 0,
    trues: 0,
    value: 0,
    min: 0,
    max: 0,
    ...figures,
  };
}

/** A gauge's series from its values over the run, the last one now. */
function gauge(metric: 'vus' | 'vus_max', tags: Tags, values: readonly number[]): Series {
  return builtin(metric, tags, {
    value: values[values.length - 1]!,
    min: Math.min(...values),
    max: Math.max(...values),
  });
}

/** A built-in trend's series, when it has samples. */
function pushTrend(
  out: Series[],
  metric: BuiltinMetric,
  tags: Tags,
  encoded: EncodedHistogram | undefined,
): void {
  if (encoded === undefined || encoded === '') return;
  out.push(builtin(metric, tags, { trend: { encoded, layout: 'micros' } }));
}
