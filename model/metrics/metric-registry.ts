/**
 * The metric registry: every metric barrage records, declared once as plain data. The threshold
 * parser, the evaluator, the recorder's tag model and the reports all read it, so a metric cannot
 * be added in one place and forgotten in another. Kinds are k6's:
 *   counter  a sum (requests, bytes): count = the sum, rate = the sum per second of the run
 *   rate     samples true or false: rate = true / all (0..1), count = the true ones
 *   trend    values summarized by percentiles (an HDR histogram): pNN, avg, mean, min, max
 *   gauge    the last value set, and the least and most it held: value, min, max
 */

/** Tags of a sample or a series, by key (docs/configuration.md, Tags). */
export type Tags = Readonly<Record<string, string>>;

/** How a metric's samples are summarized. */
export type MetricKind = 'counter' | 'gauge' | 'rate' | 'trend';

/** The unit of a metric's samples, as reports print them. */
export type MetricUnit = 'ms' | 'bytes' | 'count' | 'ratio' | 'none';

/** The tags barrage itself sets on samples (users add their own; docs/configuration.md, Tags). */
export type BuiltinTag =
  | 'endpoint'
  | 'method'
  | 'status'
  | 'scenario'
  | 'group'
  | 'check'
  | 'expected_response'
  | 'error_kind';

/** Every built-in tag: a user's own tags take other keys. */
export const BUILTIN_TAGS: readonly BuiltinTag[] = [
  'endpoint',
  'method',
  'status',
  'scenario',
  'group',
  'check',
  'expected_response',
  'error_kind',
];

/** True when `key` is one of barrage's own tags. */
export function isBuiltinTag(key: string): key is BuiltinTag {
  return (BUILTIN_TAGS as readonly string[]).includes(key);
}

/** What a tag key may be: a letter or "_", then letters, digits, "_", "." or "-". */
export const TAG_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** One metric: what it measures and which of barrage's tags its samples carry. */
export interface MetricDeclaration {
  readonly kind: MetricKind;
  readonly unit: MetricUnit;
  readonly description: string;
  /** barrage's tags on its samples. */
  readonly tags: readonly BuiltinTag[];
  /** True when its samples also carry the user's tags (of the run, a scenario, an endpoint, a call). */
  readonly userTags: boolean;
  /** The aggregates a threshold may read, when they are fewer than its kind's (AGGREGATES). */
  readonly aggregates?: readonly string[];
}

/** Tags of an HTTP request's samples. */
const REQUEST_TAGS: readonly BuiltinTag[] = [
  'endpoint',
  'method',
  'status',
  'scenario',
  'group',
  'expected_response',
  'error_kind',
];
/** Tags of figures kept per endpoint but not per outcome (status, error kind). */
const ENDPOINT_TAGS: readonly BuiltinTag[] = ['endpoint', 'method', 'scenario', 'group'];
const WS_TAGS: readonly BuiltinTag[] = ['endpoint', 'scenario', 'group'];
const CHECK_TAGS: readonly BuiltinTag[] = ['check', 'endpoint', 'method', 'scenario', 'group'];
/** Tags of figures kept per scenario only. */
const RUN_TAGS: readonly BuiltinTag[] = ['scenario'];

/** Every built-in metric, by name. */
export const BUILTIN_METRICS = Object.freeze({
  http_req_duration: {
    kind: 'trend',
    unit: 'ms',
    description: 'HTTP request duration, from sending it to the last byte of the response',
    tags: REQUEST_TAGS,
    userTags: true,
  },
  http_req_waiting: {
    kind: 'trend',
    unit: 'ms',
    description:
      "HTTP time to first byte, from sending the request (a redirect's last hop) to its response headers",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_connecting: {
    kind: 'trend',
    unit: 'ms',
    description:
      'TCP connect time of the requests that opened a connection (one kept alive has no sample)',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_tls_handshaking: {
    kind: 'trend',
    unit: 'ms',
    description:
      'TLS handshake time of the requests that opened an https connection (one kept alive has no sample)',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  sse_time_to_first_event: {
    kind: 'trend',
    unit: 'ms',
    description:
      "Server-Sent Events time to first event, from sending the request (a redirect's last hop) to its first event",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  sse_event_gap: {
    kind: 'trend',
    unit: 'ms',
    description: "Server-Sent Events gaps, from one event of a stream to the stream's next event",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  sse_events: {
    kind: 'counter',
    unit: 'count',
    description: 'Server-Sent Events received: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  stream_time_to_first_chunk: {
    kind: 'trend',
    unit: 'ms',
    description:
      "Streamed body's time to first chunk, from sending the request (a redirect's last hop) to its first body bytes",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  stream_chunk_gap: {
    kind: 'trend',
    unit: 'ms',
    description: "Streamed body's gaps, from one chunk (a read of its body) to the next",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  stream_chunks: {
    kind: 'counter',
    unit: 'count',
    description: 'Chunks of streamed bodies received: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_failed: {
    kind: 'rate',
    unit: 'ratio',
    description:
      'Failed requests (a WebSocket session is one): rate is their share of all requests, count their number',
    tags: REQUEST_TAGS,
    userTags: true,
  },
  http_requests: {
    kind: 'counter',
    unit: 'count',
    description: 'Requests sent (a WebSocket session is one): count in all, rate per second',
    tags: REQUEST_TAGS,
    userTags: true,
  },
  ws_connecting: {
    kind: 'trend',
    unit: 'ms',
    description: 'WebSocket connection time, from the upgrade request to the open socket',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_message_rtt: {
    kind: 'trend',
    unit: 'ms',
    description: 'WebSocket round trip, from a message sent to the next message received',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_session_duration: {
    kind: 'trend',
    unit: 'ms',
    description: 'WebSocket session length, from the upgrade request to the close acknowledgement',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_msgs_sent: {
    kind: 'counter',
    unit: 'count',
    description: 'WebSocket messages sent: count in all, rate per second',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_msgs_received: {
    kind: 'counter',
    unit: 'count',
    description: 'WebSocket messages received: count in all, rate per second',
    tags: WS_TAGS,
    userTags: true,
  },
  data_received: {
    kind: 'counter',
    unit: 'bytes',
    description:
      'Bytes received on the wire (compressed bodies as sent): count in all, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  data_sent: {
    kind: 'counter',
    unit: 'bytes',
    description: 'Bytes sent on the wire: count in all, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  iterations: {
    kind: 'counter',
    unit: 'count',
    description:
      'Iterations started (a flow or a scenario function run once): count in all, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  iteration_duration: {
    kind: 'trend',
    unit: 'ms',
    description:
      'Iteration duration, from its start to its end (its last step and think, or its function settled), failed ones included',
    tags: RUN_TAGS,
    userTags: false,
  },
  vus_max: {
    kind: 'gauge',
    unit: 'count',
    description:
      'Virtual users allocated (the pool as it grew, which never shrinks): value = max = the number at the end',
    tags: RUN_TAGS,
    userTags: false,
    aggregates: ['value', 'max'],
  },
  vus: {
    kind: 'gauge',
    unit: 'count',
    description:
      'Virtual users running an iteration, sampled once a second: value = at the last sample, min and max over the run',
    tags: RUN_TAGS,
    userTags: false,
  },
  dropped_iterations: {
    kind: 'counter',
    unit: 'count',
    description:
      'Iterations an arrival-rate load dropped because no virtual user was free in time: count, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  checks: {
    kind: 'rate',
    unit: 'ratio',
    description:
      "Checks (an endpoint's checks, a scenario's check()): rate is the passing share, count the number passed",
    tags: CHECK_TAGS,
    userTags: true,
  },
} as const satisfies Record<string, MetricDeclaration>);

/** The name of a built-in metric: the evaluator's switch over it is exhaustive. */
export type BuiltinMetric = keyof typeof BUILTIN_METRICS;

/** True when `name` is a built-in metric (own keys only: "constructor" is not one). */
export function isBuiltinMetric(name: string): name is BuiltinMetric {
  return Object.hasOwn(BUILTIN_METRICS, name);
}

/** Trend aggregates by name; a trend also takes any pNN with 0 < NN <= 100. */
const TREND_AGGREGATES: readonly string[] = [
  'p50',
  'p90',
  'p95',
  'p99',
  'avg',
  'mean',
  'min',
  'max',
];

/** The aggregates a threshold may read of each kind of metric. */
export const AGGREGATES: Readonly<Record<MetricKind, readonly string[]>> = Object.freeze({
  trend: TREND_AGGREGATES,
  rate: ['rate', 'count'],
  counter: ['count', 'rate'],
  gauge: ['value', 'min', 'max'],
});

/**
 * What a custom metric's name may be (k6's rule): a letter or "_", then up to 127 letters, digits
 * or "_"; never a built-in metric's name.
 */
export const CUSTOM_METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * The largest value a custom trend takes: its histogram (runtime/metrics/custom-histogram.ts)
 * records value × 1000 up to 2^53 − 1.
 */
export const MAX_TREND_VALUE = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/** Every kind, as `metrics:` and the TypeScript classes name them. */
export const METRIC_KINDS = [
  'trend',
  'counter',
  'rate',
  'gauge',
] as const satisfies readonly MetricKind[];

/** Every unit a declaration may name. */
export const METRIC_UNITS = [
  'ms',
  'bytes',
  'count',
  'ratio',
  'none',
] as const satisfies readonly MetricUnit[];

/**
 * barrage's tags a custom metric's samples may carry: a scenario's `add()` carries its scenario
 * and group; a YAML endpoint's extractor also its endpoint, method and status.
 */
export const CUSTOM_TAGS: readonly BuiltinTag[] = [
  'endpoint',
  'method',
  'status',
  'scenario',
  'group',
];

/** A custom metric as a configuration (or a scenario's top level) declares it. */
export interface CustomMetric {
  readonly kind: MetricKind;
  readonly unit: MetricUnit;
  readonly description: string;
}

/** The registry's view of a custom metric: its samples carry CUSTOM_TAGS and the user's tags. */
export function customDeclaration(metric: CustomMetric): MetricDeclaration {
  return { ...metric, tags: CUSTOM_TAGS, userTags: true };
}
