/**
 * RunResult: the figures of a finished run (spec §2.7 and DESIGN.md §7), computed once from the
 * merged ShardSnapshot. Reports read this, never live runtime objects. Field names are the JSON
 * result's (snake_case); the JSON report orders the keys, rounds latencies to 3 decimals and
 * writes null where a figure has no data.
 */

import type { MetricKind, MetricUnit, Tags } from '../../model/metrics/metric-registry.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import type { EndpointFigureResults, RunFigureResults } from './figure-results.js';
import type { EndpointSecond, VusSample } from './snapshot.js';
import type { SecondResult } from '../../model/metrics/metric-figures.js';

/** Latency summary in milliseconds. */
export interface LatencySummary {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
}

/** One point of the latency distribution: the latency (ms) at a percentile (0–100). */
export interface PercentilePoint {
  readonly percentile: number;
  readonly ms: number;
}

/**
 * One endpoint's line in the reports. For a WebSocket endpoint, requests are sessions, latency is
 * the session duration, and `websocket` holds its WebSocket figures (absent for HTTP endpoints).
 * The figure families' results (figure-results.ts: time to first byte, `sse`, `stream`…) follow.
 */
export type EndpointResult = EndpointOwnResult & EndpointFigureResults;

/** An endpoint's own figures, besides the figure families'. */
export interface EndpointOwnResult {
  readonly name: string;
  readonly requests: number;
  readonly failures: number;
  readonly latency_ms: LatencySummary | undefined;
  /** HTTP versions its responses came over, by ALPN name (`http/1.1`, `h2`); absent: none. */
  readonly protocols?: readonly string[];
  readonly status_codes: Readonly<Record<string, number>>;
  readonly errors: Readonly<Record<string, number>>;
  readonly websocket?: WsResult;
  /** Its requests by second (the HTML report's per-endpoint charts; not in the JSON). */
  readonly seconds?: readonly EndpointSecond[];
}

/** Requests with one value of a tag. */
export interface TagValueResult {
  readonly value: string;
  readonly requests: number;
  readonly failures: number;
  readonly latency_ms: LatencySummary | undefined;
}

/** Requests broken down by the values of one tag (`summary_by`, or a threshold's tag). */
export interface TagBreakdown {
  readonly key: string;
  readonly values: readonly TagValueResult[];
  /** Values past the bound of a breakdown, not shown. */
  readonly values_left_out: number;
}

/** A gauge of virtual users: at the last sample, and the least and most over the run. */
export interface VusResult {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

/** One second of the run. */
export type SeriesPoint = {
  readonly second: number;
  readonly requests: number;
  readonly failures: number;
  readonly p50_ms: number | undefined;
  readonly p95_ms: number | undefined;
  readonly p99_ms: number | undefined;
} & SecondResults;

/** The figures kept second by second (FigureSpec.perSecond) of a second that counted any. */
export type SecondResults = { readonly [K in SecondResult]?: number };

/** WebSocket figures. */
export interface WsResult {
  readonly sessions: number;
  readonly failures: number;
  readonly msgs_sent: number;
  readonly msgs_received: number;
  /** Frames a step took: replies, receives, frames a listen's match selected. */
  readonly msgs_taken: number;
  /** Frames received that no step took (received − taken). */
  readonly msgs_skipped: number;
  /** Frames taken while listening. */
  readonly listen_msgs: number;
  /** listen_msgs per second of listening: a listening session's push rate; undefined without listens. */
  readonly listen_rate: number | undefined;
  /** Failed sessions by cause and step: "ws_timeout in endpoint chat, step 1 (receive)". */
  readonly step_failures: Readonly<Record<string, number>>;
  readonly connecting_ms: LatencySummary | undefined;
  readonly message_rtt_ms: LatencySummary | undefined;
  readonly session_duration_ms: LatencySummary | undefined;
}

/** Check figures (TypeScript scenarios). */
export interface ChecksResult {
  readonly passes: number;
  readonly fails: number;
  /** Passing share, 0 to 1; undefined when no check ran. */
  readonly rate: number | undefined;
  readonly by_name: Readonly<Record<string, { readonly passes: number; readonly fails: number }>>;
}

/** Token fetch figures. */
export interface AuthResult {
  readonly token_fetches: number;
  readonly failures: number;
  readonly latency_ms: LatencySummary | undefined;
}

/** A custom metric's figures by its kind (runtime/metrics/summarize-custom.ts). */
export type CustomFigures =
  | { readonly count: number; readonly rate: number }
  | { readonly rate: number; readonly trues: number; readonly total: number }
  | { readonly value: number; readonly min: number; readonly max: number }
  | {
      readonly count: number;
      readonly avg: number;
      readonly min: number;
      readonly max: number;
      readonly p50: number;
      readonly p90: number;
      readonly p95: number;
      readonly p99: number;
    };

/** A custom metric: its type and unit, its figures, and each tag set's when its samples had tags. */
export type CustomMetricResult = {
  readonly type: MetricKind;
  readonly unit: MetricUnit;
  readonly description?: string;
  readonly by_tags?: readonly ({ readonly tags: Tags } & CustomFigures)[];
} & CustomFigures;

/**
 * A finished (or interrupted) run: its own figures and the figure families' (figure-results.ts:
 * waiting_ms, connecting_ms, tls_handshaking_ms, sse, stream, iteration_duration_ms…).
 */
export type RunResult = RunOwnResult & RunFigureResults;

/** A run's own figures, besides the figure families'. */
export interface RunOwnResult {
  readonly total: number;
  readonly successes: number;
  readonly failures: number;
  readonly iterations: number;
  readonly duration_ms: number;
  readonly requests_per_sec: number;
  /** Service-time latency (ms); undefined when nothing completed. */
  readonly latency_ms: LatencySummary | undefined;
  /** Latency from the intended send time (open model); undefined in the closed model. */
  readonly intended_latency_ms: LatencySummary | undefined;
  /** Active virtual users (vus), sampled once a second; undefined when never sampled. */
  readonly vus?: VusResult;
  /** The active virtual users of each sampled second (the HTML report's chart; not in the JSON). */
  readonly vus_series?: readonly VusSample[];
  /** Virtual users allocated (vus_max); undefined in raw files written before it was counted. */
  readonly vus_max?: number;
  readonly late: number;
  readonly dropped: number;
  readonly retries: number;
  /** Redirect hops followed, each one more request the target saw. */
  readonly redirects: number;
  /** Wire bytes received: compressed bodies count as sent. */
  readonly bytes_received: number;
  /** What the compressed bodies among bytes_received decoded to. */
  readonly bytes_decoded: number;
  readonly bytes_sent: number;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly errors: Readonly<Record<string, number>>;
  /** Requests never sent (not in total or any rate), by kind and by cause (`kind: where`). */
  readonly unsent: number;
  readonly unsent_errors: Readonly<Record<string, number>>;
  readonly unsent_causes: Readonly<Record<string, number>>;
  /** Iterations of a TypeScript scenario that failed (a throw, a limit), by error kind. */
  readonly iterations_failed: number;
  readonly iteration_errors: Readonly<Record<string, number>>;
  readonly endpoints: readonly EndpointResult[];
  readonly series: readonly SeriesPoint[];
  readonly websocket: WsResult | undefined;
  readonly checks: ChecksResult | undefined;
  readonly auth: AuthResult | undefined;
  readonly interrupted: boolean;
  readonly started_at: string;
  /** Service-time latency at fixed percentiles (metrics/latency-distribution.ts); [] when none. */
  readonly latency_distribution: readonly PercentilePoint[];
  /**
   * The trends marked `distribution` in the registry (LLM TTFT and ITL) at the same percentiles,
   * by metric, each with samples; absent when none has any.
   */
  readonly figure_distributions?: Readonly<Record<string, readonly PercentilePoint[]>>;
  /** Each named scenario's own figures; undefined in a run of the top-level form. */
  readonly scenarios?: Readonly<Record<string, RunResult>>;
  /** Requests by the values of tags the run asked about (summary_by, thresholds' tags). */
  readonly by_tag?: readonly TagBreakdown[];
  /** Custom metrics by name (absent when none got a sample). */
  readonly metrics?: Readonly<Record<string, CustomMetricResult>>;
  /** What the bounds of the metrics model folded or left out (absent when nothing was). */
  readonly warnings?: readonly string[];
  /**
   * The first failed requests of each endpoint and error kind, redacted (docs/reports.md, Sample
   * failures); absent when none failed.
   */
  readonly sample_failures?: readonly ExchangeRecord[];
}
