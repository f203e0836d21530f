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
  | 'error_kind'
  | 'retry'
  | 'redirect';

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
  'retry',
  'redirect',
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

/**
 * How a built-in metric's figures are kept, merged, summarized, judged and sent (its family):
 *   request           requests by outcome (status, error kind): http_req_duration, http_req_failed
 *                     and http_requests, recorded on the request path's fast lane
 *   endpoint-trend    an HDR histogram of each endpoint and of the run, made on its first sample
 *   endpoint-counter  a count of each endpoint and of the run, made on its first
 *   endpoint-rate     true samples of a total, of each endpoint and of the run
 *   run-trend         an HDR histogram of the run (of each scenario)
 *   run-counter       a count of the run (of each scenario)
 *   websocket         WebSocket sessions' figures, of each ws:// endpoint and of the run
 *   checks            passes and fails by name and tags
 *   vus               the virtual users' gauges
 * The five figure families are generic: a row of theirs says where its figures live (`figure`),
 * and the recorder, snapshot, merge, raw schema, summary, JSON result, text report, thresholds
 * and live outputs work from the rows (metric-figures.ts): a new metric of theirs is a row here
 * and its recording call.
 */
export type MetricFamily = 'request' | FigureFamily | 'websocket' | 'checks' | 'vus';

/** The families whose figures the result pipeline handles from their rows alone. */
export type FigureFamily =
  'endpoint-trend' | 'endpoint-counter' | 'endpoint-rate' | 'run-trend' | 'run-counter';

/** Where a figure family's metric lives, and how the reports name it. */
export interface FigureSpec {
  /** Its key in a snapshot: the run's, and each endpoint's for the endpoint families. */
  readonly field: string;
  /**
   * Its key in the summarized result and the JSON result: `name`, or `group.name` for a figure of
   * a group (`sse.events`), which is there when any of its figures is. A trend's is `…_ms`, but
   * for one of unit `none` (its values recorded × 1000: llm_request_output_throughput).
   */
  readonly result: string;
  /** Its line in the text report. */
  readonly label: string;
  /** An endpoint trend also shown in each endpoint's result, not only the run's. */
  readonly perEndpoint?: true;
  /**
   * One of the run's core counters: always in the snapshot and the result, in their fixed places
   * (SPEC §2.7's fields and their neighbours), which the generic code reads but does not place.
   */
  readonly core?: true;
  /**
   * Its figure of each second of the run too (the per-second series of the requests,
   * runtime/metrics/second-series.ts): a counter's sum, or a trend's samples, of the requests that
   * ended in that second; `field` its key in a second's snapshot, `result` in the JSON result's
   * series points.
   */
  readonly perSecond?: { readonly field: string; readonly result: string };
  /** A trend whose percentile curve the HTML report draws, as the latency's (a run's). */
  readonly distribution?: true;
}

/** A built-in metric: its declaration and its family (with its figure, for a figure family). */
export type BuiltinDeclaration = MetricDeclaration &
  (
    | { readonly family: Exclude<MetricFamily, FigureFamily>; readonly figure?: undefined }
    | { readonly family: FigureFamily; readonly figure: FigureSpec }
  );

/** Tags of an HTTP request's samples. */
const REQUEST_TAGS: readonly BuiltinTag[] = [
  'endpoint',
  'method',
  'status',
  'scenario',
  'group',
  'expected_response',
  'error_kind',
  'retry',
  'redirect',
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
    family: 'request',
    unit: 'ms',
    description: 'HTTP request duration, from sending it to the last byte of the response',
    tags: REQUEST_TAGS,
    userTags: true,
  },
  http_req_waiting: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: { field: 'waiting', result: 'waiting_ms', label: 'Waiting (TTFB)', perEndpoint: true },
    unit: 'ms',
    description:
      "HTTP time to first byte, from sending the request (a redirect's last hop) to its response headers",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_connecting: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: { field: 'connecting', result: 'connecting_ms', label: 'Connecting' },
    unit: 'ms',
    description:
      'TCP connect time of the requests that opened a connection (one kept alive has no sample)',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_tls_handshaking: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: { field: 'tlsHandshaking', result: 'tls_handshaking_ms', label: 'TLS handshaking' },
    unit: 'ms',
    description:
      'TLS handshake time of the requests that opened an https connection (one kept alive has no sample)',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_total_duration: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'totalDuration',
      result: 'total_duration_ms',
      label: 'Total duration (retries, waits and redirects included)',
      perEndpoint: true,
    },
    unit: 'ms',
    description:
      'A request as the user asked for it: from its first attempt sent to its final response, retries, their waits and redirects included',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_total_failed: {
    kind: 'rate',
    family: 'endpoint-rate',
    figure: {
      field: 'totalFailed',
      result: 'total_failed',
      label: 'Failed after retries',
      perEndpoint: true,
    },
    unit: 'ratio',
    description:
      'Requests as the user asked for them that failed, their retries spent: rate is their share, count their number',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_retry_wait: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: { field: 'retryWait', result: 'retry_wait_ms', label: 'Retry wait' },
    unit: 'ms',
    description:
      "Time waited before a retry: the backoff, or the server's Retry-After when it asks for longer",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  sse_time_to_first_event: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'sseFirstEvent',
      result: 'sse.time_to_first_event_ms',
      label: 'SSE time to first event',
    },
    unit: 'ms',
    description:
      "Server-Sent Events time to first event, from sending the request (a redirect's last hop) to its first event",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  sse_event_gap: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: { field: 'sseEventGap', result: 'sse.event_gap_ms', label: 'SSE event gap' },
    unit: 'ms',
    description: "Server-Sent Events gaps, from one event of a stream to the stream's next event",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  sse_events: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: { field: 'sseEvents', result: 'sse.events', label: 'SSE events' },
    unit: 'count',
    description: 'Server-Sent Events received: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  stream_time_to_first_chunk: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'streamFirstChunk',
      result: 'stream.time_to_first_chunk_ms',
      label: 'Stream time to first chunk',
    },
    unit: 'ms',
    description:
      "Streamed body's time to first chunk, from sending the request (a redirect's last hop) to its first body bytes",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  stream_chunk_gap: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: { field: 'streamChunkGap', result: 'stream.chunk_gap_ms', label: 'Stream chunk gap' },
    unit: 'ms',
    description: "Streamed body's gaps, from one chunk (a read of its body) to the next",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  stream_chunks: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: { field: 'streamChunks', result: 'stream.chunks', label: 'Stream chunks' },
    unit: 'count',
    description: 'Chunks of streamed bodies received: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_time_to_first_token: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'llmFirstToken',
      result: 'llm.time_to_first_token_ms',
      label: 'LLM time to first token',
      distribution: true,
    },
    unit: 'ms',
    description:
      "LLM time to first token (TTFT), from sending the request (a redirect's last hop) to its stream's first event that carries output",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_inter_token_latency: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'llmTokenGap',
      result: 'llm.inter_token_latency_ms',
      label: 'LLM inter-token latency',
      distribution: true,
    },
    unit: 'ms',
    description:
      "LLM inter-token latency (ITL), from one output-bearing event of a stream to the stream's next one",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_time_per_output_token: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'llmPerToken',
      result: 'llm.time_per_output_token_ms',
      label: 'LLM time per output token',
    },
    unit: 'ms',
    description:
      'LLM time per output token (TPOT) of each request with two output tokens or more: (end-to-end - TTFT) / (output tokens - 1)',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_request_duration: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'llmDuration',
      result: 'llm.request_duration_ms',
      label: 'LLM end-to-end latency',
      perSecond: { field: 'llmRequests', result: 'llm_requests' },
    },
    unit: 'ms',
    description:
      "LLM end-to-end latency of each successful request, from sending it (a redirect's last hop) to its stream's end marker or its response's end",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_request_output_throughput: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'llmRequestThroughput',
      result: 'llm.request_output_tokens_per_sec',
      label: 'LLM output tokens/s per request',
    },
    unit: 'none',
    description:
      "LLM output tokens per second of each successful request (LLMPerf's request output throughput): its output tokens / its end-to-end latency; recorded × 1000, as a custom trend's values",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_input_tokens: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: { field: 'llmInputTokens', result: 'llm.input_tokens', label: 'LLM input tokens' },
    unit: 'count',
    description:
      'LLM input (prompt) tokens of successful requests, as their usage says: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_output_tokens: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: {
      field: 'llmOutputTokens',
      result: 'llm.output_tokens',
      label: 'LLM output tokens',
      perSecond: { field: 'llmOutputTokens', result: 'llm_output_tokens' },
    },
    unit: 'count',
    description:
      'LLM output tokens of successful requests (their usage, else their output-bearing events): count in all, rate = output tokens per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  llm_goodput: {
    kind: 'rate',
    family: 'endpoint-rate',
    figure: { field: 'llmGoodput', result: 'llm.goodput', label: 'LLM goodput' },
    unit: 'ratio',
    description:
      "LLM requests that met the endpoint's goodput SLOs (TTFT, TPOT, end-to-end; a failed request meets none): rate is their share, count their number",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  grpc_req_duration: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'grpcDuration',
      result: 'grpc.req_duration_ms',
      label: 'gRPC call duration',
      perEndpoint: true,
    },
    unit: 'ms',
    description:
      'gRPC call duration, from starting the call to its status (a stream: to its end), of every call whatever its status',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  grpc_reqs: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: { field: 'grpcReqs', result: 'grpc.reqs', label: 'gRPC calls' },
    unit: 'count',
    description:
      'gRPC calls made (a stream is one): count in all, rate per second; failed ones (an unexpected status) are in http_req_failed',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  grpc_streams_msgs_sent: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: {
      field: 'grpcMsgsSent',
      result: 'grpc.streams_msgs_sent',
      label: 'gRPC stream messages sent',
    },
    unit: 'count',
    description:
      'Messages written to client-streaming and bidirectional gRPC calls: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  grpc_streams_msgs_received: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: {
      field: 'grpcMsgsReceived',
      result: 'grpc.streams_msgs_received',
      label: 'gRPC stream messages received',
    },
    unit: 'count',
    description:
      'Messages received from server-streaming and bidirectional gRPC calls: count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  http_req_failed: {
    kind: 'rate',
    family: 'request',
    unit: 'ratio',
    description:
      'Failed requests (a WebSocket session is one): rate is their share of all requests, count their number',
    tags: REQUEST_TAGS,
    userTags: true,
  },
  http_requests: {
    kind: 'counter',
    family: 'request',
    unit: 'count',
    description: 'Requests sent (a WebSocket session is one): count in all, rate per second',
    tags: REQUEST_TAGS,
    userTags: true,
  },
  http_reqs: {
    kind: 'counter',
    family: 'request',
    unit: 'count',
    description:
      "HTTP requests sent, as k6's http_reqs counts them (WebSocket sessions are ws_sessions): count in all, rate per second",
    tags: REQUEST_TAGS,
    userTags: true,
  },
  ws_sessions: {
    kind: 'counter',
    family: 'websocket',
    unit: 'count',
    description: 'WebSocket sessions started: count in all, rate per second',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_connecting: {
    kind: 'trend',
    family: 'websocket',
    unit: 'ms',
    description: 'WebSocket connection time, from the upgrade request to the open socket',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_message_rtt: {
    kind: 'trend',
    family: 'websocket',
    unit: 'ms',
    description: 'WebSocket round trip, from a message sent to the next message received',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_session_duration: {
    kind: 'trend',
    family: 'websocket',
    unit: 'ms',
    description: 'WebSocket session length, from the upgrade request to the close acknowledgement',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_msgs_sent: {
    kind: 'counter',
    family: 'websocket',
    unit: 'count',
    description: 'WebSocket messages sent: count in all, rate per second',
    tags: WS_TAGS,
    userTags: true,
  },
  ws_msgs_received: {
    kind: 'counter',
    family: 'websocket',
    unit: 'count',
    description: 'WebSocket messages received: count in all, rate per second',
    tags: WS_TAGS,
    userTags: true,
  },
  socketio_sessions: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: { field: 'socketioSessions', result: 'socketio.sessions', label: 'Socket.IO sessions' },
    unit: 'count',
    description:
      'Socket.IO sessions started (one per permit of a Socket.IO endpoint): count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  socketio_connecting: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'socketioConnecting',
      result: 'socketio.connecting_ms',
      label: 'Socket.IO connecting',
    },
    unit: 'ms',
    description:
      "Socket.IO connection time, from opening the Engine.IO connection to the namespace's connect (its auth middleware passed)",
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  socketio_ack_duration: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'socketioAck',
      result: 'socketio.ack_duration_ms',
      label: 'Socket.IO ack round trip',
    },
    unit: 'ms',
    description:
      'Socket.IO acknowledgement round trip, from an event emitted to its acknowledgement',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  socketio_session_duration: {
    kind: 'trend',
    family: 'endpoint-trend',
    figure: {
      field: 'socketioSession',
      result: 'socketio.session_duration_ms',
      label: 'Socket.IO session duration',
    },
    unit: 'ms',
    description:
      'Socket.IO session length, from opening the Engine.IO connection to the disconnect after its last step',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  socketio_events_sent: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: {
      field: 'socketioSent',
      result: 'socketio.events_sent',
      label: 'Socket.IO events sent',
    },
    unit: 'count',
    description:
      'Socket.IO events emitted (acknowledgements not counted): count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  socketio_events_received: {
    kind: 'counter',
    family: 'endpoint-counter',
    figure: {
      field: 'socketioReceived',
      result: 'socketio.events_received',
      label: 'Socket.IO events received',
    },
    unit: 'count',
    description:
      'Socket.IO events received from the server, whether a step took them or not (acknowledgements and Engine.IO pings not counted): count in all, rate per second',
    tags: ENDPOINT_TAGS,
    userTags: true,
  },
  data_received: {
    kind: 'counter',
    family: 'run-counter',
    figure: { field: 'bytesIn', result: 'bytes_received', label: 'Data received', core: true },
    unit: 'bytes',
    description:
      'Bytes received on the wire (compressed bodies as sent): count in all, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  data_sent: {
    kind: 'counter',
    family: 'run-counter',
    figure: { field: 'bytesOut', result: 'bytes_sent', label: 'Data sent', core: true },
    unit: 'bytes',
    description: 'Bytes sent on the wire: count in all, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  iterations: {
    kind: 'counter',
    family: 'run-counter',
    figure: { field: 'iterations', result: 'iterations', label: 'Iterations', core: true },
    unit: 'count',
    description:
      'Iterations started (a flow or a scenario function run once): count in all, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  iteration_duration: {
    kind: 'trend',
    family: 'run-trend',
    figure: {
      field: 'iterationDuration',
      result: 'iteration_duration_ms',
      label: 'Iteration duration',
    },
    unit: 'ms',
    description:
      'Iteration duration, from its start to its end (its last step and think, or its function settled), failed ones included',
    tags: RUN_TAGS,
    userTags: false,
  },
  vus_max: {
    kind: 'gauge',
    family: 'vus',
    unit: 'count',
    description:
      'Virtual users allocated (the pool as it grew, which never shrinks): value = max = the number at the end',
    tags: RUN_TAGS,
    userTags: false,
    aggregates: ['value', 'max'],
  },
  vus: {
    kind: 'gauge',
    family: 'vus',
    unit: 'count',
    description:
      'Virtual users running an iteration, sampled once a second: value = at the last sample, min and max over the run',
    tags: RUN_TAGS,
    userTags: false,
  },
  dropped_iterations: {
    kind: 'counter',
    family: 'run-counter',
    figure: { field: 'dropped', result: 'dropped', label: 'Dropped iterations', core: true },
    unit: 'count',
    description:
      'Iterations an arrival-rate load dropped because no virtual user was free in time: count, rate per second',
    tags: RUN_TAGS,
    userTags: false,
  },
  vus_stopped: {
    kind: 'counter',
    family: 'run-counter',
    figure: { field: 'vusStopped', result: 'vus_stopped', label: 'Virtual users stopped' },
    unit: 'count',
    description:
      'Virtual users that stopped because one of their setup endpoints (setup: true) failed: they make no iteration',
    tags: RUN_TAGS,
    userTags: false,
  },
  checks: {
    kind: 'rate',
    family: 'checks',
    unit: 'ratio',
    description:
      "Checks (an endpoint's checks, a scenario's check()): rate is the passing share, count the number passed",
    tags: CHECK_TAGS,
    userTags: true,
  },
} as const satisfies Record<string, BuiltinDeclaration>);

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
