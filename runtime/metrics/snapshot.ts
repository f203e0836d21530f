/**
 * What a metrics shard holds, as plain data that crosses threads, processes and files
 * (STYLE.md: metrics cross threads as encoded HDR snapshots, batched, never per sample).
 * Latencies are HDR histograms in microseconds (1 µs … 1 h, 3 significant digits), encoded as
 * compressed base64. Snapshots are closed under merge: merging two gives a snapshot again.
 */
import type {
  EndpointCounterField,
  EndpointRateField,
  EndpointTrendField,
  RunCounterField,
  RunTrendField,
  SecondField,
} from '../../model/metrics/metric-figures.js';
import type { Tags } from '../../model/metrics/metric-registry.js';
import type { CustomSnapshot } from './custom-snapshot.js';
import type { SegmentRef } from '../../model/plan/plan.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';

/** An HDR histogram of microseconds, compressed and base64-encoded ("" when empty). */
export type EncodedHistogram = string;

/**
 * The figure families' fields (model/metrics/metric-figures.ts) of an endpoint, or of the run
 * (each endpoint's summed): named by the registry, absent until their group got a sample (and in
 * raw files written before a metric was measured).
 */
export type EndpointFigureSnapshot = { readonly [K in EndpointTrendField]?: EncodedHistogram } & {
  readonly [K in EndpointCounterField]?: number;
} & { readonly [K in EndpointRateField]?: RateCounts };

/** A rate's samples: how many were true, of how many. */
export type RateCounts = readonly [trues: number, total: number];

/** The run's figure fields: its endpoints' summed, and the run's own trends and counters. */
export type RunFigureSnapshot = EndpointFigureSnapshot & {
  readonly [K in RunTrendField]?: EncodedHistogram;
} & { readonly [K in RunCounterField]?: number };

/** Counts by key (status code, error kind, check name…). */
export type Counts = Readonly<Record<string, number>>;

/**
 * One endpoint's requests that ended alike: with one status (0: no response) and one error kind
 * (absent: the request succeeded). The tags that vary per request (`status`, `error_kind`,
 * `expected_response`) are read from these; the endpoint's own tags are the same for all.
 */
export interface OutcomeSnapshot {
  readonly status: number;
  readonly error?: string;
  /** An attempt after the first (a retry's request, or one of its hops); absent: false. */
  readonly retry?: true;
  /** A redirect's hop (not an attempt's first request); absent: false. */
  readonly redirect?: true;
  readonly requests: number;
  readonly latency: EncodedHistogram;
}

/**
 * One endpoint's figures. For a ws:// endpoint a request is a session and the latency its
 * duration; `ws` holds its WebSocket figures (absent for HTTP endpoints). The totals are the
 * sums of `outcomes` (status, then error kind ascending), kept for the reports that read them.
 */
export interface EndpointSnapshot extends EndpointFigureSnapshot {
  readonly requests: number;
  readonly failures: number;
  readonly latency: EncodedHistogram;
  readonly statusCodes: Counts;
  readonly errors: Counts;
  readonly outcomes: readonly OutcomeSnapshot[];
  readonly ws?: WsSnapshot;
  /** HTTP versions its requests used, as bits (runtime/http/http-protocol.ts); absent: none. */
  readonly protocols?: number;
  /**
   * Its requests by second (endpoint-seconds.ts), oldest first; absent without requests, and in
   * raw files written before they were kept.
   */
  readonly seconds?: readonly EndpointSecond[];
}

/** An endpoint's requests completed in one second of the run. */
export interface EndpointSecond {
  readonly second: number;
  readonly requests: number;
  readonly failures: number;
  /** The sum of their service times, µs. */
  readonly latencyUs: number;
}

/** The active virtual users sampled in one second of the run. */
export interface VusSample {
  readonly second: number;
  readonly active: number;
}

/**
 * Requests that completed during one whole second of the run, with the figures kept second by
 * second (FigureSpec.perSecond: LLM output tokens and requests), present when the second has any.
 */
export type SecondSnapshot = {
  /** Whole seconds since dispatch began (0 = the first second). */
  readonly second: number;
  readonly requests: number;
  readonly failures: number;
  readonly bytesIn: number;
  readonly latency: EncodedHistogram;
} & { readonly [K in SecondField]?: number };

/**
 * WebSocket figures: sessions (with their failures), data frames, and times in µs. `msgsTaken`
 * counts the frames a step took (a reply, a receive, a listen's match); `listenMsgs` of them were
 * taken during `listenUs` of listening (summed over sessions). `stepFailures` counts failed
 * sessions by cause and step ("ws_timeout in endpoint chat, step 1 (receive)"), run-wide only.
 */
export interface WsSnapshot {
  readonly sessions: number;
  readonly failures: number;
  readonly msgsSent: number;
  readonly msgsReceived: number;
  readonly msgsTaken: number;
  readonly listenMsgs: number;
  readonly listenUs: number;
  readonly stepFailures: Counts;
  readonly connecting: EncodedHistogram;
  readonly rtt: EncodedHistogram;
  readonly session: EncodedHistogram;
}

/** One check's results under one set of tags (an endpoint's name, a group, a call's tags). */
export interface TaggedCheckSnapshot {
  readonly name: string;
  readonly tags: Tags;
  readonly passes: number;
  readonly fails: number;
}

/** Check results: in all, by name, and by name and tags (in canonical key order). */
export interface ChecksSnapshot {
  readonly passes: number;
  readonly fails: number;
  readonly byName: Readonly<Record<string, { readonly passes: number; readonly fails: number }>>;
  readonly tagged?: readonly TaggedCheckSnapshot[];
}

/** Token fetches of the auth provider, measured apart from target requests. */
export interface AuthSnapshot {
  readonly fetches: number;
  readonly failures: number;
  readonly latency: EncodedHistogram;
}

/** Everything one shard (or a merge of shards) recorded. */
export interface ShardSnapshot extends RunFigureSnapshot {
  readonly version: 1;
  /** Segments covered (one for a shard; several after a merge). */
  readonly segments: readonly SegmentRef[];
  /** Wall-clock time dispatch began, epoch ms (earliest across merged shards). */
  readonly startedAt: number;
  /** Time from dispatch start to the last completion, ms (longest across merged shards). */
  readonly elapsedMs: number;
  /**
   * [first send, last end] of its requests and sessions, µs since dispatch start
   * (active-span.ts); absent before the first. A scenario's rates are over it.
   */
  readonly active?: readonly [fromUs: number, toUs: number];
  /** Iterations started (permits taken); a flow iteration holds several requests. */
  readonly iterations: number;
  readonly requests: number;
  readonly successes: number;
  readonly failures: number;
  /** Permits handed out after their intended time because no worker was free. */
  readonly late: number;
  /** Permits dropped after waiting longer than the timeout for a worker. */
  readonly dropped: number;
  readonly retries: number;
  /** Redirect hops followed: the target saw `requests + retries + redirects` HTTP requests. */
  readonly redirects: number;
  /** Wire bytes received (compressed bodies as sent). */
  readonly bytesIn: number;
  /** What the compressed response bodies among bytesIn decoded to. */
  readonly bytesDecoded: number;
  readonly bytesOut: number;
  readonly statusCodes: Counts;
  readonly errors: Counts;
  /**
   * Requests never sent (they could not be built, or went where they may not), by cause
   * (`kind: where`, such as `missing_variable: {{user} in endpoint login, body`). Not requests:
   * no count, rate, latency or failure of the wire includes them.
   */
  readonly unsent: Counts;
  /** Iterations of a TypeScript scenario that failed (a throw, a limit), by error kind. */
  readonly iterationErrors: Counts;
  /** Service time: from the actual send to the end of the response. */
  readonly latency: EncodedHistogram;
  /** From the permit's intended send time (open model only; "" otherwise): coordinated omission made visible. */
  readonly intended: EncodedHistogram;
  /**
   * Virtual users allocated (vus_max): started workers, which never stop before the run ends, so
   * the count at the end is the most there were. Shards add up (each owns its own); absent in
   * older files.
   */
  readonly vusMax?: number;
  /**
   * Active virtual users (vus, as k6 samples them once a second): per second of the run, the most
   * seen running an iteration when sampled; seconds ascending. Shards add up second by second.
   */
  readonly vus?: readonly VusSample[];
  /** By endpoint index. */
  readonly endpoints: readonly EndpointSnapshot[];
  /**
   * Endpoint names and each one's own tags (method, group, user tags), when the endpoints were
   * discovered while running (TypeScript scenarios: one endpoint per distinct name and tags);
   * absent when they are the plan's. Shards are aligned by name and tags before they merge.
   */
  readonly endpointNames?: readonly string[];
  readonly endpointTags?: readonly Tags[];
  readonly series: readonly SecondSnapshot[];
  readonly ws: WsSnapshot | undefined;
  readonly checks: ChecksSnapshot | undefined;
  readonly auth: AuthSnapshot | undefined;
  readonly interrupted: boolean;
  /** Custom metrics (custom-snapshot.ts); absent when none got a sample. */
  readonly custom?: CustomSnapshot;
  /**
   * Distinct TypeScript request names counted under `(other)` past the bound of name-bound.ts, as
   * the thread that folded most saw them (a merge keeps the most: threads may fold the same
   * names); absent when none was.
   */
  readonly foldedNames?: number;
  /**
   * The first failed requests of each endpoint and error kind, in time order (sample-failures.ts);
   * absent when none failed (and in older raw files).
   */
  readonly sampleFailures?: readonly ExchangeRecord[];
  /** Lines of the HTTP debug log the segments' bound dropped (absent: none, or the log is off). */
  readonly httpDebugDropped?: number;
  /**
   * Each named scenario's own figures (docs/configuration.md, Scenarios), whose merge is the rest
   * of this snapshot; absent in a run of the top-level form.
   */
  readonly scenarios?: Readonly<Record<string, ShardSnapshot>>;
}
