import t from 'tap';
import {
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  recordMicros,
  summarizeEncoded,
} from '../../runtime/metrics/histogram.js';
import {
  MAX_CAUSES,
  Recorder,
  RUN_ONLY,
  type RecorderOptions,
} from '../../runtime/metrics/recorder.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import {
  MAX_NAMES,
  MAX_OUTCOMES,
  OTHER_NAME,
  OTHER_OUTCOME,
} from '../../runtime/metrics/name-bound.js';

function recorder(overrides: Partial<RecorderOptions> = {}): Recorder {
  return new Recorder({
    endpointCount: 2,
    segment: { index: 1, count: 1 },
    startedAt: 1_700_000_000_000,
    openModel: false,
    ...overrides,
  });
}

function encoded(values: readonly number[]): string {
  const h = createHistogram();
  for (const v of values) recordMicros(h, v);
  return encodeHistogram(h);
}

t.test('an empty recorder gives an empty snapshot', async (t) => {
  const s = recorder().snapshot(0);
  t.strictSame(s, {
    version: 1,
    segments: [{ index: 1, count: 1 }],
    startedAt: 1_700_000_000_000,
    elapsedMs: 0,
    iterations: 0,
    requests: 0,
    successes: 0,
    failures: 0,
    late: 0,
    dropped: 0,
    retries: 0,
    redirects: 0,
    bytesIn: 0,
    bytesDecoded: 0,
    bytesOut: 0,
    statusCodes: {},
    errors: {},
    unsent: {},
    iterationErrors: {},
    latency: '',
    intended: '',
    vusMax: 0,
    endpoints: [
      { requests: 0, failures: 0, latency: '', statusCodes: {}, errors: {}, outcomes: [] },
      { requests: 0, failures: 0, latency: '', statusCodes: {}, errors: {}, outcomes: [] },
    ],
    series: [],
    ws: undefined,
    checks: undefined,
    auth: undefined,
    interrupted: false,
  });
});

t.test('requests: counters, status codes, error kinds, bytes, latency', async (t) => {
  const r = recorder();
  r.recordRequest(0, 200, undefined, 0, 1_000, -1, 100, 10);
  r.recordRequest(0, 200, undefined, 500, 2_500, -1, 100, 10);
  r.recordRequest(1, 503, 'http_5xx', 1_000, 4_000, -1, 50, 20);
  r.recordRequest(1, 0, 'timeout', 0, 1_500_000, -1, 0, 20);
  r.recordRequest(1, 1234, undefined, 0, 7, -1, 1, 1);
  const s = r.snapshot(2_000_000);
  t.equal(s.requests, 5);
  t.equal(s.successes, 3);
  t.equal(s.failures, 2);
  t.equal(s.bytesIn, 251);
  t.equal(s.bytesOut, 61);
  t.strictSame(s.statusCodes, { '200': 2, '503': 1, '1234': 1 }, 'no response (0) is not a status');
  t.strictSame(s.errors, { http_5xx: 1, timeout: 1 });
  t.equal(s.latency, encoded([1_000, 2_000, 3_000, 1_500_000, 7]), 'service latency = end − start');
  t.equal(s.intended, '', 'closed model: no intended latency');
  t.strictSame(s.endpoints[0], {
    requests: 2,
    failures: 0,
    latency: encoded([1_000, 2_000]),
    statusCodes: { '200': 2 },
    errors: {},
    outcomes: [{ status: 200, requests: 2, latency: encoded([1_000, 2_000]) }],
    seconds: [{ second: 0, requests: 2, failures: 0, latencyUs: 3_000 }],
  });
  t.strictSame(s.endpoints[1], {
    requests: 3,
    failures: 2,
    latency: encoded([3_000, 1_500_000, 7]),
    statusCodes: { '503': 1, '1234': 1 },
    errors: { http_5xx: 1, timeout: 1 },
    outcomes: [
      { status: 0, error: 'timeout', requests: 1, latency: encoded([1_500_000]) },
      { status: 503, error: 'http_5xx', requests: 1, latency: encoded([3_000]) },
      { status: 1234, requests: 1, latency: encoded([7]) },
    ],
    seconds: [
      { second: 0, requests: 2, failures: 1, latencyUs: 3_007 },
      { second: 1, requests: 1, failures: 1, latencyUs: 1_500_000 },
    ],
  });
  t.equal(s.elapsedMs, 2_000);
});

t.test('intended latency runs from the intended time (open model only)', async (t) => {
  const r = recorder({ openModel: true });
  r.recordRequest(0, 200, undefined, 5_000, 6_000, 1_000, 0, 0);
  r.recordRequest(0, 200, undefined, 5_000, 7_000, -1, 0, 0);
  const s = r.snapshot(10_000);
  t.equal(s.latency, encoded([1_000, 2_000]));
  t.equal(s.intended, encoded([5_000]), 'end − intended; -1 has no intended time');
  const closed = recorder({ openModel: false });
  closed.recordRequest(0, 200, undefined, 5_000, 6_000, 1_000, 0, 0);
  t.equal(closed.snapshot(10_000).intended, '');
});

t.test('per-second buckets: floor(endUs / 1e6), every second with data, ascending', async (t) => {
  const r = recorder();
  r.recordRequest(0, 200, undefined, 0, 999_999, -1, 10, 0);
  r.recordRequest(0, 500, 'http_5xx', 900_000, 1_000_000, -1, 20, 0);
  r.recordRequest(1, 200, undefined, 3_000_000, 3_000_500, -1, 30, 0);
  r.recordRequest(1, 200, undefined, 3_500_000, 3_600_000, -1, 40, 0);
  const s = r.snapshot(4_000_000);
  t.strictSame(s.series, [
    { second: 0, requests: 1, failures: 0, bytesIn: 10, latency: encoded([999_999]) },
    { second: 1, requests: 1, failures: 1, bytesIn: 20, latency: encoded([100_000]) },
    { second: 3, requests: 2, failures: 0, bytesIn: 70, latency: encoded([500, 100_000]) },
  ]);
});

t.test('late completions into sealed seconds are counted the same as in order', async (t) => {
  const ends = [0.2, 1.1, 2.5, 5.2, 0.7, 9.9, 1.9, 5.5, 0.1, 12.3, 2.2].map((s) => s * 1e6);
  const inOrder = recorder();
  for (const end of [...ends].sort((a, b) => a - b)) {
    inOrder.recordRequest(0, 200, undefined, end - 1234, end, -1, 1, 1);
  }
  const shuffled = recorder();
  for (const [i, end] of ends.entries()) {
    shuffled.recordRequest(0, 200, undefined, end - 1234, end, -1, 1, 1);
    if (i % 3 === 0) shuffled.snapshot(end); // snapshots seal seconds in between
  }
  t.strictSame(shuffled.snapshot(13e6), inOrder.snapshot(13e6));
});

t.test('snapshots do not disturb recording', async (t) => {
  const quiet = recorder({ openModel: true });
  const watched = recorder({ openModel: true });
  for (let i = 0; i < 5_000; i++) {
    const end = i * 2_000 + 1;
    for (const r of [quiet, watched]) {
      r.recordRequest(
        i % 2,
        i % 7 === 0 ? 404 : 200,
        i % 7 === 0 ? 'http_4xx' : undefined,
        end - (i % 900) * 13,
        end,
        end - 50_000,
        10,
        5,
      );
    }
    if (i % 250 === 0) {
      const live = watched.snapshot(end);
      t.ok(live.series.every((b, j, all) => j === 0 || all[j - 1]!.second < b.second));
    }
  }
  t.strictSame(watched.snapshot(10e6), quiet.snapshot(10e6));
});

t.test('a live snapshot is cumulative and final seconds do not change', async (t) => {
  const r = recorder();
  r.recordRequest(0, 200, undefined, 0, 500_000, -1, 0, 0);
  r.recordRequest(0, 200, undefined, 0, 1_200_000, -1, 0, 0);
  const early = r.snapshot(1_500_000);
  r.recordRequest(0, 200, undefined, 1_000_000, 1_600_000, -1, 0, 0);
  r.recordRequest(0, 200, undefined, 1_000_000, 2_600_000, -1, 0, 0);
  const later = r.snapshot(3_000_000);
  t.equal(early.requests, 2);
  t.equal(later.requests, 4);
  t.strictSame(later.series[0], early.series[0], 'second 0 was final at 1.5 s');
  t.equal(later.series[1]!.requests, 2);
  t.equal(later.series[2]!.second, 2);
});

t.test('iterations, late, dropped, retries, interrupted', async (t) => {
  const r = recorder();
  r.recordIteration();
  r.recordIteration();
  r.recordLate();
  r.recordDropped();
  r.recordDropped(4);
  r.recordRetry();
  t.equal(r.snapshot(0).interrupted, false);
  r.markInterrupted();
  const s = r.snapshot(0);
  t.strictSame(
    [s.iterations, s.late, s.dropped, s.retries, s.interrupted, s.requests],
    [2, 1, 5, 1, true, 0],
  );
});

t.test('unsent requests are counted apart by cause, never as requests', async (t) => {
  const r = recorder();
  r.recordUnsent('missing_variable', '{{user_name}} in endpoint login, body');
  r.recordUnsent('missing_variable', '{{user_name}} in endpoint login, body');
  r.recordUnsent('invalid_request', 'in endpoint b');
  r.recordIterationFailed('script_error');
  const s = r.snapshot(3_000_000);
  t.strictSame([s.requests, s.failures, s.successes], [0, 0, 0]);
  t.strictSame(s.errors, {});
  t.strictSame(s.series, []);
  t.strictSame(s.unsent, {
    'missing_variable: {{user_name}} in endpoint login, body': 2,
    'invalid_request: in endpoint b': 1,
  });
  t.strictSame(s.iterationErrors, { script_error: 1 });
});

t.test('past MAX_CAUSES distinct causes, later ones are counted by kind', async (t) => {
  const r = recorder();
  for (let i = 0; i < MAX_CAUSES + 5; i++) r.recordUnsent('missing_variable', `in endpoint e${i}`);
  const s = r.snapshot(1_000);
  t.equal(Object.keys(s.unsent).length, MAX_CAUSES + 1);
  t.equal(s.unsent['missing_variable: (other causes)'], 5);
});

t.test('WebSocket sessions are requests of their endpoint, with ws figures', async (t) => {
  const r = recorder();
  r.recordRequest(0, 200, undefined, 0, 1_000, -1, 10, 10);
  r.recordWsSession(1, 101, undefined, 2_000, 100_000, 1_000_000);
  r.recordWsSession(1, 403, 'ws_handshake', -1, 1_095_000, 1_100_000);
  r.recordWsMessage(1, true, 5);
  r.recordWsMessage(1, true, 6);
  r.recordWsMessage(1, false, 100);
  r.recordWsRtt(1, 1_500);
  const s = r.snapshot(2e6);
  const ws = {
    sessions: 2,
    failures: 1,
    msgsSent: 2,
    msgsReceived: 1,
    msgsTaken: 0,
    listenMsgs: 0,
    listenUs: 0,
    stepFailures: {},
    connecting: encoded([2_000]),
    rtt: encoded([1_500]),
    session: encoded([900_000, 5_000]),
  };
  t.strictSame(s.ws, ws);
  t.strictSame(s.endpoints[1], {
    requests: 2,
    failures: 1,
    latency: encoded([900_000, 5_000]),
    statusCodes: { '101': 1, '403': 1 },
    errors: { ws_handshake: 1 },
    outcomes: [
      { status: 101, requests: 1, latency: encoded([900_000]) },
      { status: 403, error: 'ws_handshake', requests: 1, latency: encoded([5_000]) },
    ],
    ws,
  });
  t.notOk('ws' in s.endpoints[0]!, 'an HTTP endpoint has no ws figures');
  t.strictSame([s.requests, s.successes, s.failures], [3, 2, 1], 'sessions count as requests');
  t.equal(s.latency, encoded([1_000]), "the run's latency stays HTTP service time");
  t.strictSame(s.statusCodes, { '101': 1, '200': 1, '403': 1 });
  t.strictSame(s.errors, { ws_handshake: 1 });
  t.strictSame([s.bytesIn, s.bytesOut], [110, 21]);
  t.strictSame(
    s.series.map((b) => [b.second, b.requests, b.failures]),
    [
      [0, 1, 0],
      [1, 2, 1],
    ],
  );
});

t.test('checks by name, and token fetches', async (t) => {
  const r = recorder();
  r.recordCheck('status is 200', true);
  r.recordCheck('status is 200', false);
  r.recordCheck('body', true);
  r.recordCheck('__proto__', true);
  r.recordAuthFetch(true, 30_000);
  r.recordAuthFetch(false, 1_000);
  const s = r.snapshot(0);
  t.equal(s.checks?.passes, 3);
  t.equal(s.checks?.fails, 1);
  t.strictSame(Object.keys(s.checks!.byName), ['__proto__', 'body', 'status is 200']);
  t.strictSame(s.checks!.byName['status is 200'], { passes: 1, fails: 1 });
  t.strictSame(Object.getPrototypeOf(s.checks!.byName), Object.prototype);
  t.strictSame(s.auth, { fetches: 2, failures: 1, latency: encoded([30_000, 1_000]) });
});

t.test('error kinds are listed in code-point order', async (t) => {
  const r = recorder();
  r.recordRequest(0, 0, 'timeout', 0, 1, -1, 0, 0);
  r.recordRequest(0, 0, 'dns', 0, 1, -1, 0, 0);
  r.recordRequest(0, 0, 'refused', 0, 1, -1, 0, 0);
  t.strictSame(Object.keys(r.snapshot(0).errors), ['dns', 'refused', 'timeout']);
});

t.test('many requests in one second keep the same bucket (no growth per request)', async (t) => {
  const r = recorder();
  for (let i = 0; i < 100_000; i++)
    r.recordRequest(0, 200, undefined, 0, 500_000 + (i % 1000), -1, 1, 1);
  const s = r.snapshot(1_000_000);
  t.equal(s.series.length, 1);
  t.equal(s.series[0]!.requests, 100_000);
});

t.test('check names past MAX_NAMES are counted under (other), as request names are', async (t) => {
  const r = recorder();
  for (let i = 0; i < MAX_NAMES + 5; i++) r.recordCheck(`check ${i}`, i % 2 === 0);
  r.recordCheck('check 0', true);
  r.recordCheck('one more', false);
  const checks = r.snapshot(1e6).checks!;
  t.equal(Object.keys(checks.byName).length, MAX_NAMES + 1);
  t.same(checks.byName['check 0'], { passes: 2, fails: 0 }, 'a kept name stays its own');
  t.same(checks.byName[OTHER_NAME], { passes: 3, fails: 3 }, 'checks 100 to 104 and one more');
  t.equal(checks.passes + checks.fails, MAX_NAMES + 7, 'every result counted');
});

t.test(
  'outcomes past MAX_OUTCOMES of an endpoint share one, and its counts stay exact',
  async (t) => {
    const r = recorder();
    for (let status = 200; status < 200 + MAX_OUTCOMES + 4; status++)
      r.recordRequest(0, status, undefined, 0, 1_000, -1, 0, 0);
    const e = r.snapshot(1e6).endpoints[0]!;
    t.equal(e.outcomes.length, MAX_OUTCOMES + 1, 'the kept ones, and one for the rest');
    t.strictSame(e.outcomes[0], {
      status: OTHER_OUTCOME,
      requests: 4,
      latency: encoded([1_000, 1_000, 1_000, 1_000]),
    });
    t.equal(Object.keys(e.statusCodes).length, MAX_OUTCOMES + 4, 'status counts are not folded');
    t.equal(e.requests, MAX_OUTCOMES + 4);
  },
);

t.test('endpoints added while running carry their names and tags', async (t) => {
  const r = recorder({ endpointCount: 0 });
  const a = r.addEndpoint('cart', { method: 'GET', group: 'shop' });
  const b = r.addEndpoint('cart', { method: 'POST' });
  r.recordRequest(b, 201, undefined, 0, 10, -1, 0, 0);
  const s = r.snapshot(1e6);
  t.strictSame([a, b], [0, 1]);
  t.strictSame(s.endpointNames, ['cart', 'cart']);
  t.strictSame(s.endpointTags, [{ method: 'GET', group: 'shop' }, { method: 'POST' }]);
  t.equal(s.endpoints[1]!.requests, 1);
});

t.test('time to first byte, iteration durations and virtual users', async (t) => {
  const r = recorder();
  r.recordRequest(0, 200, undefined, 0, 2_000, -1, 0, 0, 800);
  r.recordRequest(1, 200, undefined, 0, 1_000, -1, 0, 0, 400);
  r.recordRequest(1, 0, 'timeout', 0, 1_000, -1, 0, 0);
  r.recordTrend(FIGURE.iteration_duration, RUN_ONLY, 1_500);
  r.recordVuStarted();
  r.recordVuStarted();
  const s = r.snapshot(1_000_000);
  t.same(summarizeEncoded(s.waiting!), { ...summarizeEncoded(s.waiting!), min: 0.4, max: 0.8 });
  t.equal(summarizeEncoded(s.endpoints[0]!.waiting!)?.max, 0.8, "each endpoint's own");
  t.equal(
    decodeHistogram(s.endpoints[1]!.waiting!).totalCount,
    1,
    'a request without headers has no sample',
  );
  t.equal(summarizeEncoded(s.iterationDuration!)?.max, 1.5);
  t.equal(s.vusMax, 2);
  const none = recorder().snapshot(0);
  t.notOk('waiting' in none || 'iterationDuration' in none, 'absent until the first sample');
  t.notOk('waiting' in none.endpoints[0]!);
});

t.test('active virtual users: the most sampled in each second, seconds ascending', async (t) => {
  const r = recorder();
  r.sampleVus(2_500_000, 4);
  r.sampleVus(500_000, 2);
  r.sampleVus(600_000, 3);
  r.sampleVus(700_000, 1);
  t.strictSame(r.snapshot(3e6).vus, [
    { second: 0, active: 3 },
    { second: 2, active: 4 },
  ]);
  t.notOk('vus' in recorder().snapshot(1e6), 'never sampled: absent');
});
