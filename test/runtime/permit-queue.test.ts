import t from 'tap';
import { PermitQueue } from '../../runtime/schedule/permit-queue.js';
import {
  ClosedSource,
  DONE,
  NO_INTENDED_TIME,
  WAITING,
} from '../../runtime/schedule/permit-source.js';

function queue(maxAgeUs = 1000, maxBacklog = 100) {
  let now = 0;
  const counts = { late: 0, dropped: 0 };
  const q = new PermitQueue(() => now, maxAgeUs, maxBacklog, {
    late: () => counts.late++,
    dropped: (n) => (counts.dropped += n),
  });
  return { q, counts, setNow: (v: number) => (now = v) };
}

/** A worker's waiter: records the permits it is given. */
function waiter(): { got: number[]; take: (intendedUs: number) => void } {
  const got: number[] = [];
  return { got, take: (intendedUs) => got.push(intendedUs) };
}

const nobody = (): void => {
  throw new Error('no permit should reach a waiter here');
};

t.test('a waiting worker gets the permit at once; nobody waiting makes it late', async (t) => {
  const { q, counts } = queue();
  const worker = waiter();
  t.equal(q.take(worker.take), WAITING, 'an idle worker waits');
  q.offer(10);
  t.same(worker.got, [10], 'its waiter is called with the permit, once');
  t.equal(counts.late, 0);
  q.offer(20);
  t.equal(counts.late, 1, 'no worker free: late');
  t.same(worker.got, [10]);
  t.equal(q.take(nobody), 20, 'a backlog permit is taken synchronously');
});

t.test('permits older than the timeout are dropped when reached', async (t) => {
  const { q, counts, setNow } = queue(1000);
  q.offer(0);
  q.offer(500);
  q.offer(1500);
  setNow(2000);
  t.equal(q.take(nobody), 1500, 'the two stale ones are skipped');
  t.equal(counts.dropped, 2);
});

t.test('the backlog is capped: the oldest permit makes room', async (t) => {
  const { q, counts } = queue(1e12, 3);
  for (let i = 0; i < 5; i++) q.offer(i);
  t.equal(q.backlog, 3);
  t.equal(counts.dropped, 2);
  t.equal(q.take(nobody), 2);
});

t.test('close ends idle workers and drops what never ran', async (t) => {
  const { q, counts } = queue();
  const worker = waiter();
  t.equal(q.take(worker.take), WAITING);
  q.close();
  t.same(worker.got, [DONE]);
  const { q: q2, counts: c2 } = queue();
  q2.offer(1);
  q2.offer(2);
  q2.close();
  t.equal(c2.dropped, 2);
  t.equal(q2.take(nobody), DONE);
  t.equal(counts.dropped, 0);
});

t.test('the ring grows without losing order', async (t) => {
  const { q } = queue(1e12, 10_000);
  for (let i = 0; i < 300; i++) q.offer(i);
  const got: number[] = [];
  for (let i = 0; i < 300; i++) got.push(q.take(nobody));
  t.same(
    got,
    Array.from({ length: 300 }, (_, i) => i),
  );
});

t.test('closed source: exactly `limit` permits, then DONE', async (t) => {
  const source = new ClosedSource(3);
  t.same(
    [source.take(), source.take(), source.take(), source.take()],
    [NO_INTENDED_TIME, NO_INTENDED_TIME, NO_INTENDED_TIME, DONE],
  );
  const endless = new ClosedSource(undefined);
  t.equal(endless.take(), NO_INTENDED_TIME);
  endless.close();
  t.equal(endless.take(), DONE);
});

t.test(
  'a growing pool: a permit with no worker free starts one, up to the pool, then is dropped',
  async (t) => {
    const counts = { late: 0, dropped: 0 };
    let started = 0;
    const q = new PermitQueue(
      () => 0,
      1000,
      100,
      { late: () => counts.late++, dropped: (n) => (counts.dropped += n) },
      {
        grow: () => {
          if (started >= 2) return false;
          started++;
          return true;
        },
        dropWhenFull: true,
      },
    );
    q.offer(1);
    q.offer(2);
    t.equal(started, 2, 'each permit with no worker free started one');
    t.equal(q.take(nobody), 1, 'and waits for it, in order');
    t.equal(q.take(nobody), 2);
    q.offer(3);
    t.equal(started, 2, 'the pool is full');
    t.same(counts, { late: 0, dropped: 1 }, 'so the permit is dropped at once, never late');
  },
);

t.test('a full fixed pool of the top-level form keeps permits late instead', async (t) => {
  const counts = { late: 0, dropped: 0 };
  const q = new PermitQueue(
    () => 0,
    1000,
    100,
    { late: () => counts.late++, dropped: (n) => (counts.dropped += n) },
    { grow: () => false, dropWhenFull: false },
  );
  q.offer(5);
  t.same(counts, { late: 1, dropped: 0 });
  t.equal(q.take(nobody), 5);
});
