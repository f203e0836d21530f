import t from 'tap';
import { Recorder } from '../../runtime/metrics/recorder.js';
import { perSecond, summarize } from '../../runtime/metrics/summarize.js';

function recorder(openModel = false, endpointCount = 2): Recorder {
  return new Recorder({
    endpointCount,
    segment: { index: 1, count: 1 },
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    openModel,
  });
}

t.test('perSecond = count / (elapsedMs / 1000), 0 when nothing elapsed', async (t) => {
  const cases: readonly (readonly [number, number, number])[] = [
    [1000, 10_000, 100],
    [5, 2_500, 2],
    [7, 0, 0],
    [0, 1_000, 0],
  ];
  for (const [count, elapsed, expected] of cases) t.equal(perSecond(count, elapsed), expected);
});

t.test('an empty run', async (t) => {
  const result = summarize(recorder().snapshot(0), ['a', 'b']);
  t.strictSame(result, {
    total: 0,
    successes: 0,
    failures: 0,
    iterations: 0,
    duration_ms: 0,
    requests_per_sec: 0,
    latency_ms: undefined,
    intended_latency_ms: undefined,
    vus_max: 0,
    late: 0,
    dropped: 0,
    retries: 0,
    redirects: 0,
    bytes_received: 0,
    bytes_decoded: 0,
    bytes_sent: 0,
    status_codes: {},
    errors: {},
    unsent: 0,
    unsent_errors: {},
    unsent_causes: {},
    iterations_failed: 0,
    iteration_errors: {},
    endpoints: [
      { name: 'a', requests: 0, failures: 0, latency_ms: undefined, status_codes: {}, errors: {} },
      { name: 'b', requests: 0, failures: 0, latency_ms: undefined, status_codes: {}, errors: {} },
    ],
    series: [],
    websocket: undefined,
    checks: undefined,
    auth: undefined,
    interrupted: false,
    started_at: '2026-01-02T03:04:05.000Z',
    latency_distribution: [],
  });
});

t.test(
  'a run with requests: counters, throughput, latency in ms, endpoints by index',
  async (t) => {
    const r = recorder(true);
    // 1000 requests over 4 s; latencies 1…1000 µs exactly (below 2048 µs HDR is exact).
    for (let i = 1; i <= 1000; i++) {
      const end = i * 4_000;
      const failed = i % 10 === 0;
      r.recordRequest(
        i % 2,
        failed ? 500 : 200,
        failed ? 'http_5xx' : undefined,
        end - i,
        end,
        end - 2 * i,
        3,
        1,
      );
      r.recordIteration();
    }
    r.recordLate();
    r.recordDropped(2);
    r.recordRetry();
    const result = summarize(r.snapshot(4_000_000), ['even', 'odd']);
    t.strictSame(
      [result.total, result.successes, result.failures, result.iterations],
      [1000, 900, 100, 1000],
    );
    t.equal(result.duration_ms, 4_000);
    t.equal(result.requests_per_sec, 250);
    t.strictSame(result.latency_ms, {
      min: 0.001,
      max: 1,
      mean: 0.5005,
      p50: 0.5,
      p90: 0.9,
      p95: 0.95,
      p99: 0.99,
    });
    t.equal(result.intended_latency_ms?.max, 2, 'intended = end − intended time');
    t.strictSame(
      result.latency_distribution
        .filter((p) => [0, 50, 99, 100].includes(p.percentile))
        .map((p) => [p.percentile, p.ms]),
      [
        [0, 0.001],
        [50, 0.5],
        [99, 0.99],
        [100, 1],
      ],
      'the distribution reads the service-time histogram',
    );
    t.strictSame([result.late, result.dropped, result.retries], [1, 2, 1]);
    t.strictSame([result.bytes_received, result.bytes_sent], [3000, 1000]);
    t.strictSame(result.status_codes, { '200': 900, '500': 100 });
    t.strictSame(result.errors, { http_5xx: 100 });
    t.strictSame(
      result.endpoints.map((e) => [e.name, e.requests, e.failures, e.latency_ms?.max]),
      [
        ['even', 500, 100, 1],
        ['odd', 500, 0, 0.999],
      ],
    );
  },
);

t.test('series points carry p50/p95/p99 per second; no latency gives undefined', async (t) => {
  const r = recorder();
  for (let us = 1; us <= 100; us++) r.recordRequest(0, 200, undefined, 0, us, -1, 0, 0);
  r.recordWsSession(1, 0, 'refused', -1, 1_500_000, 1_500_000);
  const result = summarize(r.snapshot(2_000_000), ['a', 'b']);
  t.strictSame(result.series, [
    { second: 0, requests: 100, failures: 0, p50_ms: 0.05, p95_ms: 0.095, p99_ms: 0.099 },
    {
      second: 1,
      requests: 1,
      failures: 1,
      p50_ms: undefined,
      p95_ms: undefined,
      p99_ms: undefined,
    },
  ]);
});

t.test('WebSocket, checks, auth and interruption', async (t) => {
  const r = recorder();
  r.recordWsSession(1, 101, undefined, 1_000, 100_000, 200_000);
  r.recordWsMessage(1, true, 3);
  r.recordWsRtt(1, 500);
  r.recordCheck('a', true);
  r.recordCheck('a', true);
  r.recordCheck('b', false);
  r.recordAuthFetch(false, 2_000);
  r.markInterrupted();
  const result = summarize(r.snapshot(1_000_000), ['x', 'y']);
  t.strictSame(result.websocket, {
    sessions: 1,
    failures: 0,
    msgs_sent: 1,
    msgs_received: 0,
    msgs_taken: 0,
    msgs_skipped: 0,
    listen_msgs: 0,
    listen_rate: undefined,
    step_failures: {},
    connecting_ms: { min: 1, max: 1, mean: 1, p50: 1, p90: 1, p95: 1, p99: 1 },
    message_rtt_ms: { min: 0.5, max: 0.5, mean: 0.5, p50: 0.5, p90: 0.5, p95: 0.5, p99: 0.5 },
    session_duration_ms: result.websocket?.session_duration_ms,
  });
  t.ok(Math.abs(result.websocket!.session_duration_ms!.p50 - 100) <= 0.1);
  t.equal(result.websocket?.message_rtt_ms?.p99, 0.5);
  t.strictSame(result.endpoints[1]!.websocket, result.websocket, 'the endpoint has its own');
  t.equal(result.endpoints[1]!.requests, 1, 'a session is a request of its endpoint');
  t.equal(result.endpoints[1]!.latency_ms?.p50, result.websocket?.session_duration_ms?.p50);
  t.notOk('websocket' in result.endpoints[0]!, 'absent for an HTTP endpoint');
  t.strictSame(result.checks, {
    passes: 2,
    fails: 1,
    rate: 2 / 3,
    by_name: { a: { passes: 2, fails: 0 }, b: { passes: 0, fails: 1 } },
  });
  t.strictSame(result.auth, {
    token_fetches: 1,
    failures: 1,
    latency_ms: { min: 2, max: 2, mean: 2, p50: 2, p90: 2, p95: 2, p99: 2 },
  });
  t.equal(result.interrupted, true);
});

t.test('checks without results have no rate; missing names fall back to the index', async (t) => {
  const snapshot = {
    ...recorder(false, 3).snapshot(0),
    checks: { passes: 0, fails: 0, byName: {} },
  };
  const result = summarize(snapshot, ['only']);
  t.equal(result.checks?.rate, undefined);
  t.strictSame(
    result.endpoints.map((e) => e.name),
    ['only', '#1', '#2'],
  );
});
