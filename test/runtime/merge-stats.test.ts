import t from 'tap';
import { createHistogram, encodeHistogram, recordMicros } from '../../runtime/metrics/histogram.js';
import { MergeMemo, mergeSnapshots, sumChecksByName } from '../../runtime/metrics/merge-stats.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import type { SecondSnapshot, ShardSnapshot } from '../../runtime/metrics/snapshot.js';

function encoded(values: readonly number[]): string {
  const h = createHistogram();
  for (const v of values) recordMicros(h, v);
  return encodeHistogram(h);
}

function shard(
  index: number,
  startedAt: number,
  record: (r: Recorder) => void,
  elapsedUs: number,
): ShardSnapshot {
  const r = new Recorder({
    endpointCount: 2,
    segment: { index, count: 3 },
    startedAt,
    openModel: true,
  });
  record(r);
  return r.snapshot(elapsedUs);
}

const A = shard(
  2,
  1_000,
  (r) => {
    r.recordIteration();
    r.recordRequest(0, 200, undefined, 0, 1_000, 0, 10, 1);
    r.recordRequest(1, 500, 'http_5xx', 0, 1_500_000, 0, 20, 2);
    r.recordLate();
    r.recordCheck('ok', true);
  },
  2_000_000,
);
const B = shard(
  1,
  900,
  (r) => {
    r.recordIteration();
    r.recordIteration();
    r.recordRequest(1, 200, undefined, 0, 2_000, 100, 30, 3);
    r.recordRequest(1, 0, 'timeout', 0, 2_500_000, -1, 0, 4);
    r.recordDropped(3);
    r.recordRetry();
    r.recordWsSession(1, 101, undefined, 1_000, 10_000, 60_000);
    r.recordWsMessage(1, false, 7);
    r.recordCheck('ok', false);
    r.recordCheck('body', true);
    r.markInterrupted();
  },
  3_000_000,
);
const C = shard(
  3,
  1_100,
  (r) => {
    r.recordRequest(0, 404, 'http_4xx', 0, 1_200_000, 200_000, 5, 5);
    r.recordAuthFetch(true, 7_000);
  },
  1_500_000,
);

t.test('counters are summed, times are min/max, parts merged when present', async (t) => {
  const m = mergeSnapshots([A, B, C]);
  t.strictSame(m.segments, [
    { index: 1, count: 3 },
    { index: 2, count: 3 },
    { index: 3, count: 3 },
  ]);
  t.equal(m.startedAt, 900);
  t.equal(m.elapsedMs, 3_000);
  t.strictSame(
    [m.iterations, m.requests, m.successes, m.failures, m.late, m.dropped, m.retries],
    [3, 6, 3, 3, 1, 3, 1],
    'a WebSocket session is a request',
  );
  t.strictSame([m.bytesIn, m.bytesOut], [72, 15]);
  t.strictSame(m.statusCodes, { '101': 1, '200': 2, '404': 1, '500': 1 });
  t.strictSame(m.errors, { http_4xx: 1, http_5xx: 1, timeout: 1 });
  t.equal(m.latency, encoded([1_000, 1_500_000, 2_000, 2_500_000, 1_200_000]));
  t.equal(m.intended, encoded([1_000, 1_500_000, 1_900, 1_000_000]));
  t.strictSame(m.endpoints[0], {
    requests: 2,
    failures: 1,
    latency: encoded([1_000, 1_200_000]),
    statusCodes: { '200': 1, '404': 1 },
    errors: { http_4xx: 1 },
    outcomes: [
      { status: 200, requests: 1, latency: encoded([1_000]) },
      { status: 404, error: 'http_4xx', requests: 1, latency: encoded([1_200_000]) },
    ],
    seconds: [
      { second: 0, requests: 1, failures: 0, latencyUs: 1_000 },
      { second: 1, requests: 1, failures: 1, latencyUs: 1_200_000 },
    ],
  });
  t.strictSame(
    m.endpoints[1]!.outcomes.map((o) => [o.status, o.error, o.requests]),
    [
      [0, 'timeout', 1],
      [101, undefined, 1],
      [200, undefined, 1],
      [500, 'http_5xx', 1],
    ],
    'outcomes of the same status and kind from every shard, status then kind ascending',
  );
  t.equal(m.endpoints[1]!.requests, 4);
  t.equal(m.endpoints[1]!.latency, encoded([1_500_000, 2_000, 2_500_000, 50_000]));
  t.strictSame(m.endpoints[1]!.ws, m.ws, 'the only ws endpoint holds all the ws figures');
  t.strictSame(m.ws, {
    sessions: 1,
    failures: 0,
    msgsSent: 0,
    msgsReceived: 1,
    msgsTaken: 0,
    listenMsgs: 0,
    listenUs: 0,
    stepFailures: {},
    connecting: encoded([1_000]),
    rtt: '',
    session: encoded([50_000]),
  });
  t.strictSame(m.checks, {
    passes: 2,
    fails: 1,
    byName: { body: { passes: 1, fails: 0 }, ok: { passes: 1, fails: 1 } },
  });
  t.strictSame(m.auth, { fetches: 1, failures: 0, latency: encoded([7_000]) });
  t.equal(m.interrupted, true);
});

t.test('series are aligned by second and summed', async (t) => {
  const m = mergeSnapshots([A, B, C]);
  t.strictSame(m.series, [
    { second: 0, requests: 3, failures: 0, bytesIn: 40, latency: encoded([1_000, 2_000]) },
    { second: 1, requests: 2, failures: 2, bytesIn: 25, latency: encoded([1_500_000, 1_200_000]) },
    { second: 2, requests: 1, failures: 1, bytesIn: 0, latency: encoded([2_500_000]) },
  ]);
});

t.test('merging one snapshot gives it back; order and grouping do not matter', async (t) => {
  t.strictSame(mergeSnapshots([A]), A);
  const abc = mergeSnapshots([A, B, C]);
  t.strictSame(mergeSnapshots([C, A, B]), abc);
  t.strictSame(mergeSnapshots([mergeSnapshots([A, B]), C]), abc);
  t.strictSame(mergeSnapshots([A, mergeSnapshots([C, B])]), abc);
});

t.test('parts absent everywhere stay undefined', async (t) => {
  const m = mergeSnapshots([C, C]);
  t.equal(m.ws, undefined);
  t.equal(m.checks, undefined);
  t.equal(m.auth?.fetches, 2);
  t.equal(m.interrupted, false);
});

t.test('bug guards: no snapshot, another version, another endpoint count', async (t) => {
  t.throws(() => mergeSnapshots([]), /no snapshot/);
  const future = { ...A, version: 2 } as unknown as ShardSnapshot;
  t.throws(() => mergeSnapshots([A, future]), /version 2/);
  t.throws(() => mergeSnapshots([A, { ...B, endpoints: B.endpoints.slice(1) }]), /1 endpoints ≠ 2/);
});

t.test('a MergeMemo gives the same merges and notices changes', async (t) => {
  const memo = new MergeMemo();
  const plain = mergeSnapshots([A, B, C]);
  t.strictSame(mergeSnapshots([A, B, C], memo), plain);
  const again = mergeSnapshots([A, B, C], memo);
  t.strictSame(again, plain);
  t.equal(again.series[1], mergeSnapshots([A, B, C], memo).series[1], 'reused, not recomputed');

  const changed: SecondSnapshot = { ...B.series[0]!, requests: 99, latency: encoded([5]) };
  const B2 = { ...B, series: [changed, ...B.series.slice(1)] };
  t.strictSame(mergeSnapshots([A, B2, C], memo), mergeSnapshots([A, B2, C]));
  t.equal(mergeSnapshots([A, B2, C], memo).series[0]!.requests, 100);
});

t.test(
  'check counts sum by name, in the order first seen; __proto__ is a name like any',
  async (t) => {
    const summed = sumChecksByName([
      ['b', { passes: 1, fails: 0 }],
      ['__proto__', { passes: 2, fails: 1 }],
      ['b', { passes: 3, fails: 4 }],
      ['a', { passes: 0, fails: 1 }],
    ]);
    t.same(
      [...summed],
      [
        ['b', { passes: 4, fails: 4 }],
        ['__proto__', { passes: 2, fails: 1 }],
        ['a', { passes: 0, fails: 1 }],
      ],
    );
    t.same(Object.keys(Object.fromEntries(summed)), ['b', '__proto__', 'a']);
  },
);
