// The JSON result: fixed key order, rounding, explicit nulls, optional sections and thresholds in
// configuration order with spec §2.6's fields.
import t from 'tap';
import { renderJsonReport, round3, toJsonResult } from '../../cli/render/json-report.js';
import {
  EXAMPLE_THRESHOLDS,
  latencyFixture,
  runReportFixture,
  runResultFixture,
  thresholdFixture,
} from '../helpers/run-report-fixture.js';

const BASE_KEYS = [
  'total',
  'successes',
  'failures',
  'requests_per_sec',
  'p50_latency_ms',
  'p90_latency_ms',
  'p95_latency_ms',
  'p99_latency_ms',
  'min_latency_ms',
  'max_latency_ms',
  'mean_latency_ms',
  'duration_ms',
  'iterations',
  'status_codes',
  'errors',
  'unsent',
  'unsent_errors',
  'unsent_causes',
  'iterations_failed',
  'iteration_errors',
  'endpoints',
  'late',
  'dropped',
  'retries',
  'redirects',
  'bytes_received',
  'bytes_decoded',
  'bytes_sent',
  'intended_latency_ms',
  'waiting_ms',
  'connecting_ms',
  'tls_handshaking_ms',
  'total_duration_ms',
  'total_failed',
  'retry_wait_ms',
  'iteration_duration_ms',
  'vus_stopped',
  'vus',
  'vus_max',
  'interrupted',
  'started_at',
];

/** The JSON text parsed back, so tests see what a consumer sees. */
function parsed(report = runReportFixture()): Record<string, unknown> {
  return JSON.parse(renderJsonReport(report)) as Record<string, unknown>;
}

t.test('key order without optional sections', (t) => {
  const keys = [...BASE_KEYS, 'series', 'latency_distribution'];
  t.same(Object.keys(toJsonResult(runReportFixture())), keys);
  t.same(Object.keys(parsed()), keys, 'the same after JSON.stringify');
  t.end();
});

t.test('key order with every optional section', (t) => {
  const result = runResultFixture({
    websocket: {
      sessions: 5,
      failures: 1,
      msgs_sent: 50,
      msgs_received: 49,
      msgs_taken: 0,
      msgs_skipped: 0,
      listen_msgs: 0,
      listen_rate: undefined,
      step_failures: {},
      connecting_ms: latencyFixture(),
      message_rtt_ms: undefined,
      session_duration_ms: latencyFixture(),
    },
    checks: {
      passes: 9,
      fails: 1,
      rate: 0.9,
      by_name: { 'status is 200': { passes: 9, fails: 1 } },
    },
    auth: { token_fetches: 2, failures: 0, latency_ms: latencyFixture() },
  });
  const json = parsed(runReportFixture(result, EXAMPLE_THRESHOLDS));
  t.same(Object.keys(json), [
    ...BASE_KEYS,
    'websocket',
    'checks',
    'auth',
    'series',
    'thresholds',
    'latency_distribution',
  ]);
  t.same(json.websocket, {
    sessions: 5,
    failures: 1,
    msgs_sent: 50,
    msgs_received: 49,
    msgs_taken: 0,
    msgs_skipped: 0,
    listen_msgs: 0,
    listen_rate: null,
    step_failures: {},
    connecting_ms: { ...latencyFixture() },
    message_rtt_ms: null,
    session_duration_ms: { ...latencyFixture() },
  });
  t.end();
});

t.test('a WebSocket endpoint carries its own websocket block; HTTP endpoints none', (t) => {
  const ws = {
    sessions: 3,
    failures: 1,
    msgs_sent: 6,
    msgs_received: 4,
    msgs_taken: 0,
    msgs_skipped: 0,
    listen_msgs: 0,
    listen_rate: undefined,
    step_failures: {},
    connecting_ms: latencyFixture({ p95: 1.23456 }),
    message_rtt_ms: undefined,
    session_duration_ms: latencyFixture(),
  };
  const result = runResultFixture({
    endpoints: [
      {
        name: 'api',
        requests: 9,
        failures: 0,
        latency_ms: undefined,
        status_codes: {},
        errors: {},
      },
      {
        name: 'feed',
        requests: 3,
        failures: 1,
        latency_ms: latencyFixture(),
        status_codes: { '101': 2, '403': 1 },
        errors: { ws_handshake: 1 },
        websocket: ws,
      },
    ],
    websocket: ws,
  });
  const json = parsed(runReportFixture(result));
  const [api, feed] = json.endpoints as Record<string, unknown>[];
  t.notOk('websocket' in api!, 'absent for HTTP');
  t.same(Object.keys(feed!), [
    'name',
    'requests',
    'failures',
    'latency_ms',
    'waiting_ms',
    'total_duration_ms',
    'total_failed',
    'protocols',
    'status_codes',
    'errors',
    'websocket',
  ]);
  t.same(feed!.websocket, json.websocket, 'same shape as the run block');
  t.match(feed!.websocket, { connecting_ms: { p95: 1.235 }, message_rtt_ms: null });
  t.end();
});

t.test(
  'thresholds: absent when undefined, §2.6 fields in configuration order when defined',
  (t) => {
    t.notOk('thresholds' in parsed(), 'absent');
    const results = [
      thresholdFixture({
        threshold: 'http_req_failed:rate < 0.01',
        metric: 'http_req_failed',
        aggregate: 'rate',
        expected: 0.01,
        actual: 0.05,
        pass: false,
      }),
      thresholdFixture(),
      thresholdFixture({ actual: null, pass: false }),
    ];
    const json = parsed(runReportFixture(runResultFixture(), results));
    const thresholds = json.thresholds as { results: Record<string, unknown>[] };
    t.same(Object.keys(thresholds), ['total', 'passed', 'failed', 'results']);
    t.match(thresholds, { total: 3, passed: 1, failed: 2 });
    t.same(
      thresholds.results.map((r) => r.threshold),
      results.map((r) => r.threshold),
      'configuration order',
    );
    for (const r of thresholds.results) {
      t.same(Object.keys(r), [
        'threshold',
        'metric',
        'aggregate',
        'operator',
        'expected',
        'actual',
        'pass',
      ]);
    }
    t.equal(thresholds.results[2]?.actual, null, 'no data is null');
    t.end();
  },
);

t.test('latencies rounded to 3 decimals', (t) => {
  const cases: [number | undefined | null, number | null][] = [
    [1.23456, 1.235],
    [2, 2],
    [0.0004, 0],
    [12.3455, 12.346],
    [undefined, null],
    [null, null],
    [Number.NaN, null],
  ];
  for (const [input, want] of cases) t.equal(round3(input), want, String(input));
  const json = parsed(
    runReportFixture(
      runResultFixture({ latency_ms: latencyFixture({ p95: 8.12345, p99: 11.9999 }) }),
    ),
  );
  t.equal(json.p95_latency_ms, 8.123);
  t.equal(json.p99_latency_ms, 12);
  t.end();
});

t.test('no data: latency fields are null, not missing', (t) => {
  const result = runResultFixture({
    total: 0,
    successes: 0,
    failures: 0,
    latency_ms: undefined,
    endpoints: [
      { name: 'a', requests: 0, failures: 0, latency_ms: undefined, status_codes: {}, errors: {} },
    ],
    series: [
      {
        second: 0,
        requests: 0,
        failures: 0,
        p50_ms: undefined,
        p95_ms: undefined,
        p99_ms: undefined,
      },
    ],
  });
  const json = parsed(runReportFixture(result));
  for (const key of BASE_KEYS.filter((k) => k.endsWith('_latency_ms')))
    t.equal(json[key], null, key);
  t.equal(json.intended_latency_ms, null);
  t.equal(json.waiting_ms, null);
  t.equal(json.connecting_ms, null);
  t.equal(json.tls_handshaking_ms, null);
  t.equal(json.total_duration_ms, null);
  t.equal(json.total_failed, null, 'a rate of nothing is no rate');
  t.equal(json.retry_wait_ms, null);
  t.equal(json.iteration_duration_ms, null);
  t.equal(json.vus, null, 'never sampled');
  t.equal(json.vus_max, null, 'not counted (a raw file written before it was)');
  t.same(json.endpoints, [
    {
      name: 'a',
      requests: 0,
      failures: 0,
      latency_ms: null,
      waiting_ms: null,
      total_duration_ms: null,
      total_failed: null,
      protocols: [],
      status_codes: {},
      errors: {},
    },
  ]);
  t.same(json.series, [
    { second: 0, requests: 0, failures: 0, p50_ms: null, p95_ms: null, p99_ms: null },
  ]);
  t.end();
});

t.test('the spec fields carry the run figures', (t) => {
  const result = runResultFixture({
    status_codes: { '200': 990, '500': 10 },
    errors: { timeout: 3 },
    intended_latency_ms: latencyFixture({ p99: 30.0001 }),
    late: 7,
    interrupted: true,
  });
  t.match(parsed(runReportFixture(result)), {
    total: 1000,
    successes: 990,
    failures: 10,
    requests_per_sec: 99.98,
    p50_latency_ms: 2.5,
    p90_latency_ms: 5,
    p95_latency_ms: 8.5,
    p99_latency_ms: 12,
    min_latency_ms: 1.23,
    max_latency_ms: 45.67,
    mean_latency_ms: 3.21,
    duration_ms: 10000,
    status_codes: { '200': 990, '500': 10 },
    errors: { timeout: 3 },
    intended_latency_ms: { p99: 30 },
    late: 7,
    interrupted: true,
    started_at: '2026-01-02T03:04:05.000Z',
  });
  t.end();
});

t.test('pretty text: 2-space indent, trailing newline', (t) => {
  const text = renderJsonReport(runReportFixture());
  t.ok(text.startsWith('{\n  "total": 1000,\n  "successes": 990,'));
  t.ok(text.endsWith('}\n'));
  t.notMatch(text, 'undefined');
  t.end();
});

t.test('latency_distribution: percentile → ms rounded to 3 decimals, [] without data', (t) => {
  t.same(parsed().latency_distribution, [], 'empty');
  const result = runResultFixture({
    latency_distribution: [
      { percentile: 0, ms: 0.40712 },
      { percentile: 99.9, ms: 17.64749 },
    ],
  });
  t.same(parsed(runReportFixture(result)).latency_distribution, [
    { percentile: 0, ms: 0.407 },
    { percentile: 99.9, ms: 17.647 },
  ]);
  t.end();
});
