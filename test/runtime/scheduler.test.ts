import t from 'tap';
import { ConstantPacer } from '../../runtime/schedule/pacer.js';
import { PermitQueue } from '../../runtime/schedule/permit-queue.js';
import { DONE, WAITING } from '../../runtime/schedule/permit-source.js';
import { Scheduler } from '../../runtime/schedule/scheduler.js';

/** A queue whose clock stands at `nowUs`, counting late and dropped permits. */
function queue(nowUs: number) {
  const counts = { late: 0, dropped: 0 };
  const q = new PermitQueue(() => nowUs, Infinity, Infinity, {
    late: () => counts.late++,
    dropped: (n) => (counts.dropped += n),
  });
  return { q, counts };
}

t.test('a wake-up sends every permit due by now, in order, and no later one', async (t) => {
  const { q } = queue(0);
  const got: number[] = [];
  const take = (us: number): void => void got.push(us);
  for (let i = 0; i < 3; i++) t.equal(q.take(take), WAITING);
  // 1000/s with the clock standing at 2.5 ms: permits 0, 1 and 2 are due, the end at 2.5 ms.
  const scheduler = new Scheduler(new ConstantPacer(1000), q, () => 2500, Infinity, 2500);
  await scheduler.run();
  t.same(got.sort(), [0, 1000, 2000]);
  t.equal(scheduler.sent, 3);
});

t.test('stop between wake-ups ends dispatch and closes the queue', async (t) => {
  const { q, counts } = queue(0);
  // 1/s: permit 0 goes at once (nobody waits: late), then the scheduler sleeps.
  const scheduler = new Scheduler(new ConstantPacer(1), q, () => 0, Infinity, 10e6);
  const finished = scheduler.run();
  scheduler.stop();
  await finished;
  t.equal(scheduler.sent, 1);
  t.equal(counts.late, 1);
  t.equal(counts.dropped, 1, 'the permit no worker took was never run');
  t.equal(
    q.take(() => undefined),
    DONE,
  );
});

t.test("a stop from a permit's worker ends the wake-up under way", async (t) => {
  const { q } = queue(0);
  let scheduler: Scheduler | undefined = undefined;
  t.equal(
    q.take(() => scheduler?.stop()),
    WAITING,
  );
  // 1000 permits are due at 1 s; the first one's worker stops the run.
  scheduler = new Scheduler(new ConstantPacer(1000), q, () => 1e6, Infinity, 10e6);
  await scheduler.run();
  t.equal(scheduler.sent, 1);
});
