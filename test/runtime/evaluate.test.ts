import t from 'tap';
import { AGGREGATES, BUILTIN_METRICS } from '../../model/metrics/metric-registry.js';
import type { ThresholdOperator, ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { mergeSnapshots } from '../../runtime/metrics/merge-stats.js';
import { Recorder, RUN_ONLY } from '../../runtime/metrics/recorder.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { evaluateThresholds, thresholdHolds } from '../../runtime/thresholds/evaluate.js';

const NAMES = ['login', 'search', 'idle', 'feed', 'chat'];

function recorder(): Recorder {
  return new Recorder({
    endpointCount: NAMES.length,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  });
}

/**
 * The run every row reads (latencies below 2048 µs, where HDR is exact), 4 s long:
 * login: 10 requests of 100, 200, … 1000 µs, 2 failed; search: 30 requests of 1500 µs; idle: none.
 * WebSocket feed: 2 sessions (connect 500 and 1500 µs, sessions 1000 and 2000 µs), 8 sent,
 * 6 received, round trips 200, 400, 600 µs; chat: 1 session refused (403) after 1800 µs.
 * Sessions are requests (43 in all, 3 failed) but not in the run's HTTP latency.
 * Checks: 3 passes, 1 fail. Waiting (time to first byte): login's 10 requests 50 µs each but the
 * last (no headers); search's 30, 1000 µs. Search is an event stream too: its first event 800 µs
 * after the send, then two more 500 and 700 µs apart. Login streamed chunks: its first 300 µs after
 * the send, the next 400 µs later. Iterations of 1000 and 2000 µs; 3 virtual users. Logical
 * requests of login: two, of 1200 and 1800 µs in all, one failed after its retry, which waited
 * 300 µs. Search is an LLM endpoint: two requests, one of 12 input and 3 output tokens (first token
 * 900 µs, then 400 and 600 µs apart, 500 µs per token, 1900 µs in all: 1578.947 tokens/s, kept
 * × 1000) that met its goodput SLOs,
 * and one that failed.
 */
function fullRun(): ShardSnapshot {
  const r = recorder();
  for (let i = 1; i <= 10; i++) {
    const failed = i > 8;
    const kind = failed ? 'http_5xx' : undefined;
    r.recordRequest(0, failed ? 500 : 200, kind, 0, i * 100, -1, 0, 0, i === 10 ? -1 : 50);
  }
  for (let i = 0; i < 30; i++) r.recordRequest(1, 200, undefined, 1_000, 2_500, -1, 0, 0, 1_000);
  r.recordConnection(0, 300, -1);
  r.recordConnection(1, 200, 1_500);
  r.recordStreamPiece(1, 'sse', 800, -1);
  r.recordStreamPiece(1, 'sse', -1, 500);
  r.recordStreamPiece(1, 'sse', -1, 700);
  r.recordTrend(FIGURE.llm_time_to_first_token, 1, 900);
  r.recordTrend(FIGURE.llm_inter_token_latency, 1, 400);
  r.recordTrend(FIGURE.llm_inter_token_latency, 1, 600);
  r.recordTrend(FIGURE.llm_time_per_output_token, 1, 500);
  r.recordTrend(FIGURE.llm_request_duration, 1, 1_900);
  r.recordTrend(FIGURE.llm_request_output_throughput, 1, 1_578_947);
  r.recordCount(FIGURE.llm_input_tokens, 1, 12);
  r.recordCount(FIGURE.llm_output_tokens, 1, 3);
  r.recordRate(FIGURE.llm_goodput, 1, true);
  r.recordRate(FIGURE.llm_goodput, 1, false);
  // A gRPC endpoint's figures (docs/grpc.md), on the search endpoint as any endpoint's.
  r.recordTrend(FIGURE.grpc_req_duration, 1, 1_100);
  r.recordCount(FIGURE.grpc_reqs, 1, 2);
  r.recordCount(FIGURE.grpc_streams_msgs_sent, 1, 3);
  r.recordCount(FIGURE.grpc_streams_msgs_received, 1, 5);
  // A Socket.IO session's figures (docs/socketio.md), on the search endpoint as well.
  r.recordCount(FIGURE.socketio_sessions, 1, 2);
  r.recordTrend(FIGURE.socketio_connecting, 1, 3_000);
  r.recordTrend(FIGURE.socketio_ack_duration, 1, 1_100);
  r.recordTrend(FIGURE.socketio_session_duration, 1, 250_000);
  r.recordCount(FIGURE.socketio_events_sent, 1, 4);
  r.recordCount(FIGURE.socketio_events_received, 1, 7);
  r.recordStreamPiece(0, 'chunks', 300, -1);
  r.recordStreamPiece(0, 'chunks', -1, 400);
  r.recordTrend(FIGURE.http_req_total_duration, 0, 1_200);
  r.recordTrend(FIGURE.http_req_total_duration, 0, 1_800);
  r.recordRate(FIGURE.http_req_total_failed, 0, false);
  r.recordRate(FIGURE.http_req_total_failed, 0, true);
  r.recordTrend(FIGURE.http_req_retry_wait, 0, 300);
  r.recordTrend(FIGURE.iteration_duration, RUN_ONLY, 1_000);
  r.recordTrend(FIGURE.iteration_duration, RUN_ONLY, 2_000);
  r.recordCount(FIGURE.vus_stopped, RUN_ONLY);
  for (let i = 0; i < 3; i++) r.recordVuStarted();
  r.sampleVus(500_000, 2);
  r.sampleVus(1_500_000, 1);
  r.sampleVus(1_700_000, 3);
  r.recordWsSession(3, 101, undefined, 500, 9_000, 10_000);
  r.recordWsSession(3, 101, undefined, 1_500, 18_000, 20_000);
  r.recordWsSession(4, 403, 'ws_handshake', -1, 28_200, 30_000);
  for (let i = 0; i < 8; i++) r.recordWsMessage(3, true, 10);
  for (let i = 0; i < 6; i++) r.recordWsMessage(3, false, 10);
  for (const us of [200, 400, 600]) r.recordWsRtt(3, us);
  for (const pass of [true, true, true, false]) r.recordCheck('c', pass);
  return r.snapshot(4_000_000);
}

const FULL = fullRun();
const EMPTY = recorder().snapshot(4_000_000);

function spec(
  metric: string,
  aggregate: string,
  operator: ThresholdOperator = '<',
  expected = 0,
  tags: Record<string, string> = {},
): ThresholdSpec {
  const match = /^p(\d+(?:\.\d+)?)$/.exec(aggregate);
  const tagText = tags.endpoint === undefined ? '' : `{endpoint=${tags.endpoint}}`;
  return {
    expression: `${metric}${tagText}:${aggregate} ${operator} ${expected}`,
    metric,
    tags,
    aggregate,
    ...(match === null ? {} : { percentile: Number(match[1]) }),
    operator,
    expected,
  };
}

function actualOf(s: ThresholdSpec, snapshot: ShardSnapshot = FULL): number | null {
  return evaluateThresholds([s], snapshot, NAMES)[0]!.actual;
}

/** [metric, aggregate, tags, actual on the full run] */
const MEASURED: readonly (readonly [string, string, Record<string, string>, number | null])[] = [
  ['http_req_duration', 'p50', {}, 1.5],
  ['http_req_duration', 'p25', {}, 1],
  ['http_req_duration', 'p90', {}, 1.5],
  ['http_req_duration', 'p95', {}, 1.5],
  ['http_req_duration', 'p99', {}, 1.5],
  ['http_req_duration', 'p99.9', {}, 1.5],
  ['http_req_duration', 'p100', {}, 1.5],
  ['http_req_duration', 'avg', {}, 1.2625],
  ['http_req_duration', 'mean', {}, 1.2625],
  ['http_req_duration', 'min', {}, 0.1],
  ['http_req_duration', 'max', {}, 1.5],
  ['http_req_duration', 'p50', { endpoint: 'login' }, 0.5],
  ['http_req_duration', 'p90', { endpoint: 'login' }, 0.9],
  ['http_req_duration', 'p95', { endpoint: 'login' }, 1],
  ['http_req_duration', 'p12.5', { endpoint: 'login' }, 0.2],
  ['http_req_duration', 'avg', { endpoint: 'login' }, 0.55],
  ['http_req_duration', 'min', { endpoint: 'login' }, 0.1],
  ['http_req_duration', 'max', { endpoint: 'search' }, 1.5],
  ['http_req_failed', 'rate', {}, 3 / 43],
  ['http_req_failed', 'count', {}, 3],
  ['http_req_failed', 'rate', { endpoint: 'login' }, 0.2],
  ['http_req_failed', 'count', { endpoint: 'login' }, 2],
  ['http_req_failed', 'rate', { endpoint: 'search' }, 0],
  ['http_req_failed', 'count', { endpoint: 'search' }, 0],
  ['http_requests', 'count', {}, 43],
  ['http_requests', 'rate', {}, 10.75],
  ['http_requests', 'count', { endpoint: 'login' }, 10],
  ['http_requests', 'rate', { endpoint: 'login' }, 2.5],
  ['http_requests', 'count', { endpoint: 'feed' }, 2],
  ['http_req_failed', 'rate', { endpoint: 'chat' }, 1],
  ['http_req_duration', 'max', { endpoint: 'feed' }, 2],
  ['ws_connecting', 'p50', {}, 0.5],
  ['ws_connecting', 'avg', {}, 1],
  ['ws_connecting', 'max', {}, 1.5],
  ['ws_message_rtt', 'p50', {}, 0.4],
  ['ws_message_rtt', 'mean', {}, 0.4],
  ['ws_message_rtt', 'min', {}, 0.2],
  ['ws_message_rtt', 'p99', {}, 0.6],
  ['ws_session_duration', 'min', {}, 1],
  ['ws_session_duration', 'max', {}, 2],
  ['ws_session_duration', 'avg', {}, 1.6],
  ['ws_msgs_sent', 'count', {}, 8],
  ['ws_msgs_sent', 'rate', {}, 2],
  ['ws_msgs_received', 'count', {}, 6],
  ['ws_msgs_received', 'rate', {}, 1.5],
  ['ws_connecting', 'max', { endpoint: 'feed' }, 1.5],
  ['ws_message_rtt', 'p50', { endpoint: 'feed' }, 0.4],
  ['ws_session_duration', 'max', { endpoint: 'feed' }, 2],
  ['ws_session_duration', 'max', { endpoint: 'chat' }, 1.8],
  ['ws_msgs_sent', 'count', { endpoint: 'feed' }, 8],
  ['ws_msgs_received', 'rate', { endpoint: 'feed' }, 1.5],
  ['ws_msgs_sent', 'count', { endpoint: 'chat' }, 0],
  ['http_req_waiting', 'p50', {}, 1],
  ['http_req_waiting', 'min', {}, 0.05],
  ['http_req_waiting', 'p95', { endpoint: 'login' }, 0.05],
  ['http_req_waiting', 'max', { endpoint: 'search' }, 1],
  ['vus', 'value', {}, 3],
  ['vus', 'min', {}, 2],
  ['vus', 'max', {}, 3],
  ['vus', 'max', { scenario: 'default' }, 3],
  ['http_req_connecting', 'max', {}, 0.3],
  ['http_req_connecting', 'max', { endpoint: 'search' }, 0.2],
  ['http_req_tls_handshaking', 'max', {}, 1.5],
  ['http_req_tls_handshaking', 'max', { endpoint: 'login' }, null],
  ['sse_time_to_first_event', 'max', {}, 0.8],
  ['sse_time_to_first_event', 'p50', { endpoint: 'search' }, 0.8],
  ['sse_event_gap', 'max', {}, 0.7],
  ['sse_event_gap', 'min', { endpoint: 'search' }, 0.5],
  ['sse_event_gap', 'min', { endpoint: 'login' }, null],
  ['sse_events', 'count', {}, 3],
  ['sse_events', 'rate', {}, 0.75],
  ['sse_events', 'count', { endpoint: 'search' }, 3],
  ['sse_events', 'count', { endpoint: 'login' }, null],
  ['llm_time_to_first_token', 'p50', { endpoint: 'search' }, 0.9],
  ['llm_time_to_first_token', 'max', { endpoint: 'login' }, null],
  ['llm_inter_token_latency', 'max', {}, 0.6],
  ['llm_time_per_output_token', 'avg', {}, 0.5],
  ['llm_request_duration', 'max', {}, 1.9],
  ['llm_request_output_throughput', 'p50', {}, 1579.007], // 1578.947 in its HDR bucket
  ['llm_input_tokens', 'count', {}, 12],
  ['llm_output_tokens', 'count', { endpoint: 'search' }, 3],
  ['llm_output_tokens', 'rate', {}, 0.75],
  ['llm_goodput', 'rate', {}, 0.5],
  ['llm_goodput', 'count', {}, 1],
  ['grpc_req_duration', 'max', { endpoint: 'search' }, 1.1],
  ['grpc_req_duration', 'max', { endpoint: 'login' }, null],
  ['grpc_reqs', 'count', {}, 2],
  ['grpc_streams_msgs_sent', 'count', {}, 3],
  ['grpc_streams_msgs_received', 'count', { endpoint: 'search' }, 5],
  ['socketio_sessions', 'count', {}, 2],
  ['socketio_ack_duration', 'max', { endpoint: 'search' }, 1.1],
  ['socketio_events_received', 'count', { endpoint: 'login' }, null],
  ['socketio_events_sent', 'count', {}, 4],
  ['stream_time_to_first_chunk', 'max', {}, 0.3],
  ['stream_time_to_first_chunk', 'max', { endpoint: 'search' }, null],
  ['stream_chunk_gap', 'p50', { endpoint: 'login' }, 0.4],
  ['stream_chunks', 'count', {}, 2],
  ['stream_chunks', 'rate', {}, 0.5],
  ['stream_chunks', 'count', { endpoint: 'login' }, 2],
  ['stream_chunks', 'count', { endpoint: 'search' }, null],
  ['http_req_total_duration', 'min', {}, 1.2],
  ['http_req_total_duration', 'max', { endpoint: 'login' }, 1.8],
  ['http_req_total_duration', 'max', { endpoint: 'search' }, null],
  ['http_req_total_failed', 'rate', {}, 0.5],
  ['http_req_total_failed', 'count', { endpoint: 'login' }, 1],
  ['http_req_total_failed', 'rate', { endpoint: 'search' }, null],
  ['http_req_retry_wait', 'max', {}, 0.3],
  ['iteration_duration', 'min', {}, 1],
  ['iteration_duration', 'max', {}, 2],
  ['iteration_duration', 'avg', {}, 1.5],
  ['vus_max', 'value', {}, 3],
  ['vus_max', 'max', {}, 3],
  ['checks', 'rate', {}, 0.75],
  ['checks', 'count', {}, 3],
  ['checks', 'rate', { check: 'c' }, 0.75],
  ['checks', 'count', { check: 'c' }, 3],
];

t.test('every metric × aggregate reads the right figure', async (t) => {
  for (const [metric, aggregate, tags, expected] of MEASURED) {
    const s = spec(metric, aggregate, '<', 0, tags);
    t.equal(actualOf(s), expected, s.expression);
  }
});

t.test('every metric and aggregate of the grammar registry is measured', async (t) => {
  for (const [metric, info] of Object.entries(BUILTIN_METRICS)) {
    for (const aggregate of [
      ...('aggregates' in info ? info.aggregates : AGGREGATES[info.kind]),
      ...(info.kind === 'trend' ? ['p42.5'] : []),
    ]) {
      const actual = actualOf(spec(metric, aggregate));
      t.ok(
        typeof actual === 'number' && Number.isFinite(actual),
        `${metric}:${aggregate} → ${actual}`,
      );
    }
  }
});

t.test('no data gives actual null and fails, whatever the operator', async (t) => {
  const cases: readonly (readonly [string, ThresholdSpec, ShardSnapshot])[] = [
    ['no requests: duration', spec('http_req_duration', 'p95', '>=', 0), EMPTY],
    ['no requests: failed rate', spec('http_req_failed', 'rate', '>=', 0), EMPTY],
    ['no requests: failed count', spec('http_req_failed', 'count', '==', 0), EMPTY],
    ['no requests: requests count', spec('http_requests', 'count', '==', 0), EMPTY],
    ['no requests: requests rate', spec('http_requests', 'rate', '>=', 0), EMPTY],
    ['no ws: connecting', spec('ws_connecting', 'max', '>=', 0), EMPTY],
    ['no ws: rtt', spec('ws_message_rtt', 'p99', '>=', 0), EMPTY],
    ['no ws: session', spec('ws_session_duration', 'avg', '>=', 0), EMPTY],
    ['no ws: sent', spec('ws_msgs_sent', 'count', '==', 0), EMPTY],
    ['no ws: received', spec('ws_msgs_received', 'rate', '>=', 0), EMPTY],
    ['no checks: rate', spec('checks', 'rate', '>=', 0), EMPTY],
    ['no checks: count', spec('checks', 'count', '==', 0), EMPTY],
    [
      'endpoint without requests',
      spec('http_req_duration', 'p50', '>=', 0, { endpoint: 'idle' }),
      FULL,
    ],
    [
      'endpoint without requests: rate',
      spec('http_req_failed', 'rate', '>=', 0, { endpoint: 'idle' }),
      FULL,
    ],
    [
      'endpoint without requests: count',
      spec('http_requests', 'count', '==', 0, { endpoint: 'idle' }),
      FULL,
    ],
    ['unknown endpoint', spec('http_requests', 'count', '>=', 0, { endpoint: 'nope' }), FULL],
    [
      'ws metrics of an HTTP endpoint',
      spec('ws_connecting', 'p50', '>=', 0, { endpoint: 'login' }),
      FULL,
    ],
    [
      'ws counters of an HTTP endpoint',
      spec('ws_msgs_sent', 'count', '>=', 0, { endpoint: 'login' }),
      FULL,
    ],
    [
      'connect time of a session that never opened',
      spec('ws_connecting', 'max', '>=', 0, { endpoint: 'chat' }),
      FULL,
    ],
    [
      'round trips of an endpoint without messages',
      spec('ws_message_rtt', 'max', '>=', 0, { endpoint: 'chat' }),
      FULL,
    ],
    [
      'ws metrics of an unknown endpoint',
      spec('ws_session_duration', 'max', '>=', 0, { endpoint: 'nope' }),
      FULL,
    ],
    ['a check that never ran', spec('checks', 'rate', '>=', 0, { check: 'nope' }), FULL],
    [
      'a check named as an Object key',
      spec('checks', 'rate', '>=', 0, { check: 'toString' }),
      FULL,
    ],
    ['unknown metric', spec('http_nothing', 'count', '>=', 0), FULL],
    ['unknown trend aggregate', spec('http_req_duration', 'median', '>=', 0), FULL],
    ['unknown rate aggregate', spec('http_req_failed', 'sum', '>=', 0), FULL],
    ['unknown counter aggregate', spec('ws_msgs_sent', 'p50', '>=', 0), FULL],
    ['unknown checks aggregate', spec('checks', 'avg', '>=', 0), FULL],
  ];
  for (const [label, s, snapshot] of cases) {
    const [result] = evaluateThresholds([s], snapshot, NAMES);
    t.equal(result!.actual, null, `${label}: actual`);
    t.equal(result!.pass, false, `${label}: fails`);
  }
});

t.test('ws sessions absent or histograms empty mean no data', async (t) => {
  const messagesOnly = recorder();
  messagesOnly.recordWsMessage(3, true, 10);
  const snapshot = messagesOnly.snapshot(1e6);
  t.equal(actualOf(spec('ws_msgs_sent', 'count'), snapshot), null, 'no session yet');
  t.equal(actualOf(spec('ws_message_rtt', 'p50'), snapshot), null, 'no round trip');
  const noChecks = { ...FULL, checks: { passes: 0, fails: 0, byName: {} } };
  t.equal(actualOf(spec('checks', 'rate'), noChecks), null);
});

t.test('each operator, at and around the boundary', async (t) => {
  const rows: readonly (readonly [number, ThresholdOperator, number, boolean])[] = [
    [1, '<', 2, true],
    [2, '<', 2, false],
    [3, '<', 2, false],
    [1, '<=', 2, true],
    [2, '<=', 2, true],
    [3, '<=', 2, false],
    [1, '>', 2, false],
    [2, '>', 2, false],
    [3, '>', 2, true],
    [1, '>=', 2, false],
    [2, '>=', 2, true],
    [3, '>=', 2, true],
    [2, '==', 2, true],
    [0, '==', 0, true],
    [-5, '==', -5, true],
    [0.1 + 0.2, '==', 0.3, true],
    [1000 * (1 + 5e-10), '==', 1000, true],
    [1000 * (1 + 2e-9), '==', 1000, false],
    [1e-12, '==', 0, false],
    [2, '==', 3, false],
    [0.30000000000000004, '<=', 0.3, false],
  ];
  for (const [actual, op, expected, holds] of rows) {
    t.equal(thresholdHolds(actual, op, expected), holds, `${actual} ${op} ${expected}`);
  }
});

t.test('boundary equality through evaluation: values compared unrounded', async (t) => {
  const specs = [
    spec('http_req_failed', 'rate', '<=', 0.2, { endpoint: 'login' }),
    spec('http_req_failed', 'rate', '<', 0.2, { endpoint: 'login' }),
    spec('http_req_failed', 'rate', '==', 0.2, { endpoint: 'login' }),
    spec('http_requests', 'rate', '>=', 10.75),
    spec('http_requests', 'rate', '>', 10.75),
    spec('http_req_duration', 'avg', '<', 1.26),
    spec('http_req_duration', 'avg', '<', 1.27),
    spec('checks', 'rate', '==', 0.75),
  ];
  t.strictSame(
    evaluateThresholds(specs, FULL, NAMES).map((r) => r.pass),
    [true, false, true, true, false, false, true, true],
    '1.2625 is not rounded to 1.26',
  );
});

t.test('results are in spec order and echo the spec', async (t) => {
  const specs = [
    spec('http_requests', 'count', '>', 39),
    spec('http_req_duration', 'p95', '<', 1, { endpoint: 'search' }),
    spec('checks', 'rate', '>=', 0),
  ];
  t.strictSame(evaluateThresholds(specs, FULL, NAMES), [
    {
      threshold: 'http_requests:count > 39',
      metric: 'http_requests',
      aggregate: 'count',
      operator: '>',
      expected: 39,
      actual: 43,
      pass: true,
    },
    {
      threshold: 'http_req_duration{endpoint=search}:p95 < 1',
      metric: 'http_req_duration',
      aggregate: 'p95',
      operator: '<',
      expected: 1,
      actual: 1.5,
      pass: false,
    },
    {
      threshold: 'checks:rate >= 0',
      metric: 'checks',
      aggregate: 'rate',
      operator: '>=',
      expected: 0,
      actual: 0.75,
      pass: true,
    },
  ]);
  t.strictSame(evaluateThresholds([], FULL, NAMES), []);
});

t.test('a run of 0 ms has no rate per second', async (t) => {
  const r = recorder();
  r.recordRequest(0, 200, undefined, 0, 10, -1, 0, 0);
  t.equal(actualOf(spec('http_requests', 'rate'), r.snapshot(0)), 0);
});

/** Each endpoint's own tags in the full run, as a plan or a scenario gives them. */
const TAGS = {
  run: { env: 'ci' },
  endpoints: [
    { method: 'POST', team: 'auth' },
    { method: 'GET', team: 'web' },
    { method: 'GET' },
    { team: 'web' },
    {},
  ],
  scenarios: {},
};

t.test('thresholds on any tag set read the samples that carry those tags', async (t) => {
  const cases: readonly (readonly [string, string, Record<string, string>, number | null])[] = [
    ['http_req_duration', 'min', { status: '500' }, 0.9],
    ['http_req_duration', 'max', { status: '500' }, 1],
    ['http_req_failed', 'rate', { endpoint: 'login', status: '200' }, 0],
    ['http_req_failed', 'rate', { endpoint: 'login', status: '500' }, 1],
    ['http_requests', 'count', { status: '200' }, 38],
    ['http_requests', 'count', { endpoint: 'feed', status: '101' }, 2],
    ['http_req_failed', 'count', { expected_response: 'false' }, 2],
    ['http_requests', 'count', { expected_response: 'true' }, 38],
    ['http_req_failed', 'count', { error_kind: 'http_5xx' }, 2],
    ['http_req_duration', 'max', { team: 'web' }, 1.5],
    ['http_requests', 'count', { method: 'GET' }, 30],
    ['http_requests', 'count', { method: 'POST', team: 'auth' }, 10],
    ['http_requests', 'count', { team: 'nobody' }, null],
    ['http_req_duration', 'p50', { status: '404' }, null],
    ['ws_session_duration', 'max', { team: 'web' }, 2],
    ['http_requests', 'count', { scenario: 'default' }, 43],
    ['http_requests', 'count', { scenario: 'other' }, null],
  ];
  for (const [metric, aggregate, tags, expected] of cases) {
    const s = spec(metric, aggregate, '<', 0, tags);
    const actual = evaluateThresholds([s], FULL, NAMES, TAGS)[0]!.actual;
    t.equal(actual, expected, `${metric}${JSON.stringify(tags)}:${aggregate}`);
  }
});

t.test(
  "a scenario's tags select its samples; the run's rate divides by the run's time",
  async (t) => {
    const browse = recorder();
    for (let i = 0; i < 6; i++) browse.recordRequest(0, 200, undefined, 0, 1_000, -1, 0, 0);
    const buy = recorder();
    // Its active span (the first send to the last end) is its own time: 1 s.
    for (let i = 0; i < 4; i++) buy.recordRequest(1, 503, 'http_5xx', 0, 1_000_000, -1, 0, 0);
    const own = { browse: browse.snapshot(2_000_000), buy: buy.snapshot(1_000_000) };
    const run: ShardSnapshot = { ...mergeSnapshots(Object.values(own)), scenarios: own };
    const tags = { ...TAGS, scenarios: { buy: { flow: 'checkout' }, browse: {} } };
    const actual = (metric: string, aggregate: string, filter: Record<string, string>) =>
      evaluateThresholds([spec(metric, aggregate, '<', 0, filter)], run, NAMES, tags)[0]!.actual;
    t.equal(actual('http_requests', 'count', { flow: 'checkout' }), 4);
    t.equal(actual('http_req_failed', 'rate', { flow: 'checkout', team: 'web' }), 1);
    t.equal(actual('http_requests', 'count', { scenario: 'browse', method: 'POST' }), 6);
    t.equal(actual('http_requests', 'rate', { scenario: 'buy' }), 4, "the scenario's own time");
    t.equal(actual('http_requests', 'rate', { flow: 'checkout' }), 2, "the run's time");
    t.equal(actual('http_requests', 'count', { scenario: 'default' }), null);
    t.equal(actual('http_requests', 'count', {}), 10);
  },
);

t.test("the run's counters: bytes, iterations and dropped iterations", async (t) => {
  const r = recorder();
  r.recordIteration();
  r.recordIteration();
  r.recordDropped(3);
  r.recordRequest(0, 200, undefined, 0, 1_000, -1, 300, 40);
  const s = r.snapshot(2_000_000);
  const cases: readonly (readonly [string, string, number])[] = [
    ['data_received', 'count', 300],
    ['data_received', 'rate', 150],
    ['data_sent', 'count', 40],
    ['iterations', 'count', 2],
    ['iterations', 'rate', 1],
    ['dropped_iterations', 'count', 3],
  ];
  for (const [metric, aggregate, expected] of cases)
    t.equal(actualOf(spec(metric, aggregate), s), expected, `${metric}:${aggregate}`);
  t.equal(
    evaluateThresholds([spec('iterations', 'count', '<', 0, { scenario: 'default' })], s, NAMES)[0]!
      .actual,
    2,
  );
});

t.test(
  "checks by tags: an endpoint's carry its tags, a scenario's its group and call tags",
  async (t) => {
    const r = recorder();
    r.recordCheck('has id', true, { endpoint: 'login' });
    r.recordCheck('has id', false, { endpoint: 'search' });
    r.recordCheck('has id', true, { endpoint: 'search' });
    r.recordCheck('fast', true, { group: 'cart', page: 'basket' });
    r.recordCheck('fast', false);
    const s = r.snapshot(1_000_000);
    const actual = (filter: Record<string, string>, aggregate = 'rate') =>
      evaluateThresholds([spec('checks', aggregate, '<', 0, filter)], s, NAMES, TAGS)[0]!.actual;
    t.equal(actual({}), 3 / 5);
    t.equal(actual({ check: 'has id' }), 2 / 3);
    t.equal(actual({ endpoint: 'search' }), 0.5);
    t.equal(actual({ team: 'auth' }), 1, "login's own tag");
    t.equal(actual({ check: 'has id', method: 'GET' }), 0.5, "search's method");
    t.equal(actual({ group: 'cart' }), 1);
    t.equal(actual({ env: 'ci' }, 'count'), 3, 'the run tag is on every tagged check');
    t.equal(actual({ group: 'nope' }), null);
  },
);
