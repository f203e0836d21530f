import t from 'tap';
import { parseThreshold } from '../../dsl/grammar/threshold.js';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import type { SampleTable } from '../../runtime/metrics/sample-select.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import {
  abortingThreshold,
  watchAbortThresholds,
  type ThresholdAbort,
} from '../../runtime/thresholds/abort-on-fail.js';

const NAMES = ['login', 'search'];

/** `failed` of 10 requests to login failed, none to search; the snapshot taken at `elapsedMs`. */
function run(failed: number, elapsedMs: number): ShardSnapshot {
  const r = new Recorder({
    endpointCount: NAMES.length,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: false,
  });
  for (let i = 0; i < 10; i++) {
    const bad = i < failed;
    r.recordRequest(0, bad ? 500 : 200, bad ? 'http_5xx' : undefined, 0, 100, -1, 0, 0);
  }
  return r.snapshot(elapsedMs * 1000);
}

/** A parsed expression, stopping the run after `delayMs` when given. */
function spec(expression: string, delayMs?: number): ThresholdSpec {
  const parsed = parseThreshold(expression);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return delayMs === undefined ? parsed.value : { ...parsed.value, abortOnFail: { delayMs } };
}

const RATE = 'http_req_failed:rate < 0.1';

const CASES: [
  name: string,
  specs: ThresholdSpec[],
  snapshot: ShardSnapshot,
  want?: ThresholdAbort,
][] = [
  ['fails after its delay', [spec(RATE, 1000)], run(5, 1500), { threshold: RATE, atMs: 1500 }],
  ['fails exactly at its delay', [spec(RATE, 1000)], run(5, 1000), { threshold: RATE, atMs: 1000 }],
  ['fails before its delay', [spec(RATE, 1000)], run(5, 999)],
  ['passes', [spec(RATE, 0)], run(0, 5000)],
  ['fails without abort_on_fail', [spec(RATE)], run(5, 5000)],
  ['no data yet', [spec('http_req_duration{endpoint=search}:p95 < 1', 0)], run(5, 5000)],
  [
    'the first failing in configuration order',
    [spec(RATE), spec('http_requests:count < 5', 0), spec('http_req_failed:count < 1', 0)],
    run(5, 2000),
    { threshold: 'http_requests:count < 5', atMs: 2000 },
  ],
  [
    'a delay not yet passed skips it for a later one that is due',
    [spec(RATE, 60_000), spec('http_req_failed{endpoint=login}:count < 1', 500)],
    run(5, 2000),
    { threshold: 'http_req_failed{endpoint=login}:count < 1', atMs: 2000 },
  ],
];

/** The names a snapshot's samples go by: its own, else the plan's. */
function table(snapshot: ShardSnapshot): SampleTable {
  return { run: {}, names: snapshot.endpointNames ?? NAMES, endpoints: [], scenarios: {} };
}

for (const [name, specs, snapshot, want] of CASES)
  t.test(name, async (t) => {
    t.same(abortingThreshold(specs, snapshot, table(snapshot)), want);
  });

t.test('the watch calls once, at the first failure', async (t) => {
  const seen: ThresholdAbort[] = [];
  const judge = watchAbortThresholds([spec(RATE, 1000)], table, (a) => seen.push(a));
  if (judge === undefined) return t.fail('no judge for an abort threshold');
  judge(run(5, 500));
  judge(run(0, 1500));
  judge(run(5, 2000));
  judge(run(9, 2500));
  t.same(seen, [{ threshold: RATE, atMs: 2000 }]);
});

t.test('no watch without an abort threshold', async (t) => {
  t.equal(
    watchAbortThresholds([spec(RATE)], table, () => undefined),
    undefined,
  );
});

t.test("a scenario's snapshot names its endpoints itself", async (t) => {
  const seen: ThresholdAbort[] = [];
  const judge = watchAbortThresholds(
    [spec('http_req_failed{endpoint=GET /a}:count < 1', 0)],
    table,
    (a) => seen.push(a),
  );
  judge?.({ ...run(5, 800), endpointNames: ['GET /a', 'GET /b'] });
  t.equal(seen.length, 1);
});
