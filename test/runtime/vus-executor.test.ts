// The vus executor (runtime/executor/vus-executor.ts) in process: a shared iteration count is
// spent exactly across its pool, per-vu iterations give each VU its own count, and a duration or
// stop() closes the pool's permits, which its VUs see after the iteration they hold.
import t from 'tap';
import { VusExecutor } from '../../runtime/executor/vus-executor.js';
import { executorRig } from '../helpers/executor-rig.js';
import { eventually } from '../helpers/eventually.js';

t.test('shared-iterations: the pool spends exactly its count', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { executor: 'shared-iterations', vus: 3, iterations: 10 } } },
    'instant',
  );
  await new VusExecutor(rig.context).run();
  t.equal(rig.ran.length, 10);
  t.equal(rig.workers.length, 3);
  t.equal(rig.timeUps, 0, 'ended by its count, before max_duration');
});

t.test('per-vu-iterations: each VU runs its own count', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { executor: 'per-vu-iterations', vus: 3, iterations: 4 } } },
    'instant',
  );
  await new VusExecutor(rig.context).run();
  t.strictSame(
    [...rig.perWorker.entries()],
    [
      [0, 4],
      [1, 4],
      [2, 4],
    ],
  );
});

t.test('constant-vus: at its duration no VU takes another permit', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { executor: 'constant-vus', vus: 2, duration: '50ms' } } },
    'held',
  );
  const running = new VusExecutor(rig.context).run();
  await eventually(() => rig.timeUps > 0);
  t.equal(rig.held.length, 2, 'each VU holds the iteration it began');
  rig.release();
  await running;
  t.equal(rig.ran.length, 2, 'none began after the time was up');
  t.equal(rig.timeUps, 1);
});

t.test('stop() closes the permits: held iterations end and the run returns', async (t) => {
  const rig = executorRig(
    { scenarios: { s: { executor: 'constant-vus', vus: 2, duration: '10m' } } },
    'held',
  );
  const executor = new VusExecutor(rig.context);
  const running = executor.run();
  await rig.settle(2);
  executor.stop();
  rig.release();
  await running;
  t.equal(rig.ran.length, 2);
  t.equal(rig.timeUps, 0, 'stopped, not timed out');
});
