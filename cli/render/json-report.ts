/**
 * The JSON result (spec §2.7, DESIGN.md §7), printed by `--json-output` and written by
 * `report.json`. Keys come in one fixed order (JsonResult's). Latencies are milliseconds rounded
 * to 3 decimals (so are requests_per_sec and duration_ms), or null when nothing was measured:
 * every required key is present with a value, since JSON.stringify silently drops an undefined.
 * Optional sections (websocket, sse, stream, checks, auth, thresholds) are absent, not null, when the run had
 * none. A threshold's `actual` is null when its metric got no data (it then fails: DESIGN.md §6).
 * `thresholds.aborted` ({ threshold, at_ms }) is there only when an `abort_on_fail` threshold
 * stopped the run.
 * `metrics` (custom metrics, docs/reports.md) and `warnings` come after the scenarios, when there
 * are any. `latency_distribution` comes before them: the service-time latency at fixed percentiles (the curve the
 * HTML report draws), [] when nothing completed.
 */
import type {
  AuthResult,
  ChecksResult,
  CustomMetricResult,
  EndpointResult,
  PercentilePoint,
  SecondResults,
  SeriesPoint,
  TagBreakdown,
  WsResult,
} from '../../runtime/metrics/run-result.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import type { HttpDebugCounts } from '../../runtime/raw-result.js';
import type { BaselineOverlay, RunReport, ThresholdSummary } from './run-report.js';
import {
  groupsJson,
  ungroupedJson,
  type JsonEndpointFigures,
  type JsonRunFigures,
} from './json-figures.js';
import { latency, round3, type JsonLatency } from './json-latency.js';
import { SECOND_FIGURES, type SecondResult } from '../../model/metrics/metric-figures.js';

export { round3, type JsonLatency };

/**
 * One endpoint as JSON. For a WebSocket endpoint requests are sessions, latency_ms is the session
 * duration, and `websocket` holds its own WebSocket figures (absent for HTTP endpoints).
 */
export type JsonEndpoint = JsonEndpointOwn & JsonEndpointFigures;

/**
 * An endpoint's own figures as JSON; its figure families' (json-figures.ts: `waiting_ms` after
 * `latency_ms`, the groups `sse` and `stream` after `websocket`) join them.
 */
export interface JsonEndpointOwn {
  readonly name: string;
  readonly requests: number;
  readonly failures: number;
  readonly latency_ms: JsonLatency | null;
  /** HTTP versions its responses came over (`http/1.1`, `h2`); empty when none came. */
  readonly protocols: readonly string[];
  readonly status_codes: Readonly<Record<string, number>>;
  readonly errors: Readonly<Record<string, number>>;
  readonly websocket?: JsonWs;
}

/** Requests with one value of a tag, as JSON. */
export interface JsonTagValue {
  readonly value: string;
  readonly requests: number;
  readonly failures: number;
  readonly latency_ms: JsonLatency | null;
}

/** Requests by the values of one tag, as JSON. */
export interface JsonTagBreakdown {
  readonly key: string;
  readonly values: readonly JsonTagValue[];
  readonly values_left_out: number;
}

/** One second of the run as JSON. */
export type JsonSeriesPoint = {
  readonly second: number;
  readonly requests: number;
  readonly failures: number;
  readonly p50_ms: number | null;
  readonly p95_ms: number | null;
  readonly p99_ms: number | null;
} & SecondResults;

/** WebSocket figures as JSON. */
export interface JsonWs {
  readonly sessions: number;
  readonly failures: number;
  readonly msgs_sent: number;
  readonly msgs_received: number;
  readonly msgs_taken: number;
  readonly msgs_skipped: number;
  readonly listen_msgs: number;
  readonly listen_rate: number | null;
  readonly step_failures: Readonly<Record<string, number>>;
  readonly connecting_ms: JsonLatency | null;
  readonly message_rtt_ms: JsonLatency | null;
  readonly session_duration_ms: JsonLatency | null;
}

/** Check figures as JSON. */
export interface JsonChecks {
  readonly passes: number;
  readonly fails: number;
  readonly rate: number | null;
  readonly by_name: Readonly<Record<string, { readonly passes: number; readonly fails: number }>>;
}

/** Token fetch figures as JSON. */
export interface JsonAuth {
  readonly token_fetches: number;
  readonly failures: number;
  readonly latency_ms: JsonLatency | null;
}

/** One point of the latency distribution as JSON: ms rounded to 3 decimals. */
export interface JsonPercentilePoint {
  readonly percentile: number;
  readonly ms: number;
}

/** The thresholds section (spec §2.7), results in configuration order with §2.6's fields. */
export interface JsonThresholds {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  /** The `abort_on_fail` threshold that stopped the run; absent when none did. */
  readonly aborted?: JsonAbort;
  /** Where relative thresholds' limits came from (`--baseline`); absent without a baseline. */
  readonly baseline?: { readonly file: string; readonly started_at: string | null };
  readonly results: readonly ThresholdResult[];
}

/** Which threshold stopped the run, and when: ms since dispatch began, 3 decimals. */
export interface JsonAbort {
  readonly threshold: string;
  readonly at_ms: number;
}

/**
 * The JSON result, in its key order: the run's own figures, and its figure families'
 * (json-figures.ts): the ungrouped ones (`waiting_ms`, `connecting_ms`, `tls_handshaking_ms`,
 * `iteration_duration_ms`…) after `intended_latency_ms`, the groups (`sse`, `stream`) after
 * `websocket`.
 */
export type JsonResult = JsonRunOwn & JsonRunFigures;

/** The run's own figures as JSON. */
export interface JsonRunOwn {
  readonly total: number;
  readonly successes: number;
  readonly failures: number;
  readonly requests_per_sec: number;
  readonly p50_latency_ms: number | null;
  readonly p90_latency_ms: number | null;
  readonly p95_latency_ms: number | null;
  readonly p99_latency_ms: number | null;
  readonly min_latency_ms: number | null;
  readonly max_latency_ms: number | null;
  readonly mean_latency_ms: number | null;
  readonly duration_ms: number;
  readonly iterations: number;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly errors: Readonly<Record<string, number>>;
  readonly unsent: number;
  readonly unsent_errors: Readonly<Record<string, number>>;
  readonly unsent_causes: Readonly<Record<string, number>>;
  readonly iterations_failed: number;
  readonly iteration_errors: Readonly<Record<string, number>>;
  readonly endpoints: readonly JsonEndpoint[];
  /** Requests by the values of the tags the run asked about (summary_by, thresholds' tags). */
  readonly by_tag?: readonly JsonTagBreakdown[];
  readonly late: number;
  readonly dropped: number;
  readonly retries: number;
  readonly redirects: number;
  readonly bytes_received: number;
  readonly bytes_decoded: number;
  readonly bytes_sent: number;
  readonly intended_latency_ms: JsonLatency | null;
  /** Active virtual users (vus), sampled once a second; null when never sampled. */
  readonly vus: { readonly value: number; readonly min: number; readonly max: number } | null;
  /** Virtual users allocated (vus_max); null from raw files written before it was counted. */
  readonly vus_max: number | null;
  readonly interrupted: boolean;
  readonly started_at: string;
  readonly websocket?: JsonWs;
  readonly checks?: JsonChecks;
  readonly auth?: JsonAuth;
  readonly series: readonly JsonSeriesPoint[];
  readonly thresholds?: JsonThresholds;
  readonly latency_distribution: readonly JsonPercentilePoint[];
  /** Each named scenario's own figures, in the same form (without thresholds and scenarios). */
  readonly scenarios?: Readonly<Record<string, JsonResult>>;
  /** Custom metrics by name: type, unit, the kind's figures, and `by_tags` when tagged. */
  readonly metrics?: Readonly<Record<string, JsonCustomMetric>>;
  /** What the bounds of the metrics model folded or left out. */
  readonly warnings?: readonly string[];
  /** The HTTP debug log's lines written and dropped (present when it was on). */
  readonly http_debug?: HttpDebugCounts;
  /** The first failed requests of each endpoint and error kind, redacted (docs/reports.md). */
  readonly sample_failures?: readonly ExchangeRecord[];
}

/** A custom metric as JSON: its figures rounded to 3 decimals. */
export type JsonCustomMetric = Readonly<Record<string, unknown>>;

function endpoint(e: EndpointResult): JsonEndpoint {
  return {
    name: e.name,
    requests: e.requests,
    failures: e.failures,
    latency_ms: latency(e.latency_ms),
    ...ungroupedJson(e, 'endpoint'),
    protocols: e.protocols ?? [],
    status_codes: e.status_codes,
    errors: e.errors,
    ...(e.websocket === undefined ? {} : { websocket: websocket(e.websocket) }),
    ...groupsJson(e, 'endpoint'),
  };
}

function tagBreakdown(b: TagBreakdown): JsonTagBreakdown {
  return {
    key: b.key,
    values: b.values.map((v) => ({
      value: v.value,
      requests: v.requests,
      failures: v.failures,
      latency_ms: latency(v.latency_ms),
    })),
    values_left_out: b.values_left_out,
  };
}

function seriesPoint(p: SeriesPoint): JsonSeriesPoint {
  return {
    second: p.second,
    requests: p.requests,
    failures: p.failures,
    p50_ms: round3(p.p50_ms),
    p95_ms: round3(p.p95_ms),
    p99_ms: round3(p.p99_ms),
    ...secondResultsOf(p),
  };
}

/** A point's figures kept second by second (llm_output_tokens, llm_requests), when counted. */
function secondResultsOf(p: SeriesPoint): SecondResults {
  return Object.fromEntries(
    SECOND_FIGURES.flatMap((f) => {
      const key = f.spec.perSecond!.result as SecondResult;
      return p[key] === undefined ? [] : [[key, p[key]]];
    }),
  );
}

function percentilePoint(p: PercentilePoint): JsonPercentilePoint {
  return { percentile: p.percentile, ms: round3(p.ms) ?? 0 };
}

function websocket(ws: WsResult): JsonWs {
  return {
    sessions: ws.sessions,
    failures: ws.failures,
    msgs_sent: ws.msgs_sent,
    msgs_received: ws.msgs_received,
    msgs_taken: ws.msgs_taken,
    msgs_skipped: ws.msgs_skipped,
    listen_msgs: ws.listen_msgs,
    listen_rate: round3(ws.listen_rate) ?? null,
    step_failures: ws.step_failures,
    connecting_ms: latency(ws.connecting_ms),
    message_rtt_ms: latency(ws.message_rtt_ms),
    session_duration_ms: latency(ws.session_duration_ms),
  };
}

function checks(c: ChecksResult): JsonChecks {
  return { passes: c.passes, fails: c.fails, rate: c.rate ?? null, by_name: c.by_name };
}

function auth(a: AuthResult): JsonAuth {
  return {
    token_fetches: a.token_fetches,
    failures: a.failures,
    latency_ms: latency(a.latency_ms),
  };
}

/** Each result rebuilt so its keys follow spec §2.6 whatever order the evaluator used. */
function thresholds(summary: ThresholdSummary, base: BaselineOverlay | undefined): JsonThresholds {
  return {
    total: summary.total,
    passed: summary.passed,
    failed: summary.failed,
    ...(summary.aborted === undefined
      ? {}
      : {
          aborted: {
            threshold: summary.aborted.threshold,
            at_ms: round3(summary.aborted.atMs) ?? 0,
          },
        }),
    ...(base === undefined
      ? {}
      : { baseline: { file: base.file, started_at: base.started_at ?? null } }),
    results: summary.results.map((t) => ({
      threshold: t.threshold,
      metric: t.metric,
      aggregate: t.aggregate,
      operator: t.operator,
      expected: t.expected,
      actual: t.actual,
      ...(t.baseline === undefined ? {} : { baseline: t.baseline }),
      pass: t.pass,
    })),
  };
}

/** The JSON result as an object whose key order is the output's. */
export function toJsonResult(report: RunReport): JsonResult {
  const r = report.result;
  const scenarios = r.scenarios;
  const l = r.latency_ms;
  return {
    total: r.total,
    successes: r.successes,
    failures: r.failures,
    requests_per_sec: round3(r.requests_per_sec) ?? 0,
    p50_latency_ms: round3(l?.p50),
    p90_latency_ms: round3(l?.p90),
    p95_latency_ms: round3(l?.p95),
    p99_latency_ms: round3(l?.p99),
    min_latency_ms: round3(l?.min),
    max_latency_ms: round3(l?.max),
    mean_latency_ms: round3(l?.mean),
    duration_ms: round3(r.duration_ms) ?? 0,
    iterations: r.iterations,
    status_codes: r.status_codes,
    errors: r.errors,
    unsent: r.unsent,
    unsent_errors: r.unsent_errors,
    unsent_causes: r.unsent_causes,
    iterations_failed: r.iterations_failed,
    iteration_errors: r.iteration_errors,
    endpoints: r.endpoints.map(endpoint),
    ...(r.by_tag === undefined ? {} : { by_tag: r.by_tag.map(tagBreakdown) }),
    late: r.late,
    dropped: r.dropped,
    retries: r.retries,
    redirects: r.redirects,
    bytes_received: r.bytes_received,
    bytes_decoded: r.bytes_decoded,
    bytes_sent: r.bytes_sent,
    intended_latency_ms: latency(r.intended_latency_ms),
    ...ungroupedJson(r, 'run'),
    vus: r.vus ?? null,
    vus_max: r.vus_max ?? null,
    interrupted: r.interrupted,
    started_at: r.started_at,
    ...(r.websocket === undefined ? {} : { websocket: websocket(r.websocket) }),
    ...groupsJson(r, 'run'),
    ...(r.checks === undefined ? {} : { checks: checks(r.checks) }),
    ...(r.auth === undefined ? {} : { auth: auth(r.auth) }),
    series: r.series.map(seriesPoint),
    ...(report.thresholds === undefined
      ? {}
      : { thresholds: thresholds(report.thresholds, report.baseline) }),
    latency_distribution: r.latency_distribution.map(percentilePoint),
    ...(scenarios === undefined
      ? {}
      : {
          scenarios: Object.fromEntries(
            Object.entries(scenarios).map(([name, result]) => [
              name,
              toJsonResult({ ...runOnly(report), result, thresholds: undefined }),
            ]),
          ),
        }),
    ...(r.metrics === undefined ? {} : { metrics: customMetrics(r.metrics) }),
    ...(r.warnings === undefined ? {} : { warnings: r.warnings }),
    ...(report.httpDebug === undefined ? {} : { http_debug: report.httpDebug }),
    ...(r.sample_failures === undefined ? {} : { sample_failures: r.sample_failures }),
  };
}

/** The report less what belongs to the whole run only (a scenario's JSON has no debug log). */
function runOnly(report: RunReport): RunReport {
  const { httpDebug: _httpDebug, ...rest } = report;
  return rest;
}

/** Custom metrics with every figure rounded to 3 decimals, tags as they are. */
function customMetrics(
  metrics: Readonly<Record<string, CustomMetricResult>>,
): Record<string, JsonCustomMetric> {
  const rounded = (figures: object): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(figures).map(([k, v]) => [k, typeof v === 'number' ? round3(v) : v]),
    );
  return Object.fromEntries(
    Object.entries(metrics).map(([name, m]) => {
      const { by_tags: byTags, ...own } = m;
      return [
        name,
        {
          ...rounded(own),
          ...(byTags === undefined ? {} : { by_tags: byTags.map((s) => rounded(s)) }),
        },
      ];
    }),
  );
}

/** The JSON result as pretty text: 2-space indent, trailing newline. */
export function renderJsonReport(report: RunReport): string {
  return JSON.stringify(toJsonResult(report), null, 2) + '\n';
}
