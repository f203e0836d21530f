// The arrival-rate executor (runtime/executor/arrival-rate-executor.ts) in process, over a clock the
// test moves permit by permit: it gives out exactly the permits its plan holds, at their intended
// times; its pool grows to max_vus and then drops (the top-level form's fixed pool waits late
// instead); a request count or stop() ends it. One test runs on the real clock and asserts only
// what the plan fixes, so none depends on the machine's speed.
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { ArrivalRateExecutor } from '../../runtime/executor/arrival-rate-executor.js';
import { executorRig, type ExecutorRig } from '../helpers/executor-rig.js';
import { eventually } from '../helpers/eventually.js';

/** 100 iterations a second for 100 ms: 10 permits, 10 ms (10,000 µs) apart. */
const RATE = { executor: 'constant-arrival-rate', rate: 100, duration: '100ms' };
const PERIOD_US = 10_000;
const END_US = 100_000;

/** Moves the clock to permits `from`…`to - 1` in turn, each given out before the next. */
async function stepThrough(rig: ExecutorRig, from: number, to: number): Promise<void> {
  for (let k = from; k < to; k++) {
    rig.clock.us = k * PERIOD_US;
    await rig.settle(k + 1);
  }
}

/** Moves the clock to the schedule's end; once its time is up, releases what is held. */
async function finish(rig: ExecutorRig, running: Promise<void>): Promise<void> {
  rig.clock.us = END_US;
  await eventually(() => rig.timeUps > 0);
  rig.release();
  await running;
}

t.test('it gives out rate × duration permits, each at its intended time', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { ...RATE, pre_allocated_vus: 1, max_vus: 1 } } },
    'instant',
  );
  t.equal(rig.share.permits, 10, 'the plan holds 100/s × 0.1 s');
  const running = new ArrivalRateExecutor(rig.context).run();
  await stepThrough(rig, 0, 10);
  await finish(rig, running);
  t.strictSame(
    rig.ran,
    Array.from({ length: 10 }, (_, k) => k * PERIOD_US),
    'ten iterations, each with its permit time',
  );
  t.match(rig.snapshot(), { dropped: 0, late: 0 });
  t.equal(rig.workers.length, 1);
  t.equal(rig.timeUps, 1, 'its time was up once');
});

t.test('the pool grows one VU per permit that finds none free, then drops', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { ...RATE, pre_allocated_vus: 1, max_vus: 3 } } },
    'held',
  );
  const running = new ArrivalRateExecutor(rig.context).run();
  const grown: number[] = [];
  for (let k = 0; k < 10; k++) {
    await stepThrough(rig, k, k + 1);
    grown.push(rig.workers.length);
  }
  t.strictSame(grown, [1, 2, 3, 3, 3, 3, 3, 3, 3, 3], 'pre_allocated_vus, then up to max_vus');
  t.strictSame(rig.ran, [0, PERIOD_US, 2 * PERIOD_US], 'each VU took one permit');
  t.equal(rig.snapshot().dropped, 7, 'the permits the full pool could not take');
  t.equal(rig.snapshot().late, 0, 'none waited');
  await finish(rig, running);
  t.equal(rig.given(), 10, 'run + dropped = planned');
  t.strictSame([...rig.perWorker.values()], [1, 1, 1]);
});

t.test('on the real clock, iterations run and dropped add up to the plan', async (t) => {
  const start = performance.now();
  const rig = executorRig(
    { scenarios: { s: { ...RATE, rate: 200, pre_allocated_vus: 1, max_vus: 2 } } },
    'held',
    () => (performance.now() - start) * 1000,
  );
  const running = new ArrivalRateExecutor(rig.context).run();
  await eventually(() => rig.timeUps > 0);
  rig.release();
  await running;
  t.equal(rig.share.permits, 20);
  t.equal(rig.given(), 20, 'each permit ran or was counted dropped, however late');
  t.equal(rig.workers.length, 2, 'the pool grew to max_vus');
  t.ok(rig.ran.length <= 2, 'held iterations: one per VU at most');
});

t.test("the top-level form's fixed pool keeps permits waiting, late, not dropped", async (t) => {
  const rig = executorRig({ rate: 100, duration: '100ms', concurrency: 1 }, 'held');
  const running = new ArrivalRateExecutor(rig.context).run();
  await stepThrough(rig, 0, 1);
  for (let k = 1; k < 5; k++) {
    rig.clock.us = k * PERIOD_US;
    await eventually(() => rig.snapshot().late === k);
  }
  t.equal(rig.ran.length, 1, 'the one worker holds the first');
  rig.mode = 'instant';
  rig.release();
  await rig.settle(5);
  t.strictSame(
    rig.ran,
    [0, 1, 2, 3, 4].map((k) => k * PERIOD_US),
    'the late permits ran with their intended times',
  );
  await stepThrough(rig, 5, 10);
  await finish(rig, running);
  t.match(rig.snapshot(), { late: 4, dropped: 0 });
  t.equal(rig.ran.length, 10);
});

t.test('a request count ends dispatch before the duration', async (t) => {
  const rig = executorRig({ rate: 100, requests: 3, duration: '1s', concurrency: 1 }, 'instant');
  const running = new ArrivalRateExecutor(rig.context).run();
  await stepThrough(rig, 0, 3);
  await running;
  t.equal(rig.ran.length, 3);
  t.equal(rig.timeUps, 0, 'ended by its count, not its time');
});

t.test('stop() ends dispatch: no permit after it, and the run returns', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { ...RATE, pre_allocated_vus: 1, max_vus: 2 } } },
    'instant',
  );
  const executor = new ArrivalRateExecutor(rig.context);
  const running = executor.run();
  await stepThrough(rig, 0, 3);
  executor.stop();
  await running;
  t.equal(rig.ran.length, 3, 'the permits given before the stop');
  t.equal(rig.snapshot().dropped, 0);
  t.equal(rig.timeUps, 0, 'stopped, not timed out');
});

t.test('stop() before its start time: nothing starts', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { ...RATE, pre_allocated_vus: 2, max_vus: 2, start_time: '10m' } } },
    'instant',
  );
  const executor = new ArrivalRateExecutor(rig.context);
  const running = executor.run();
  executor.stop();
  await running;
  t.equal(rig.workers.length, 0);
  t.equal(rig.given(), 0);
});
