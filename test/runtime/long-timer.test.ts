import t from 'tap';
import {
  MAX_TIMER_MS,
  setLongTimeout,
  sleepLong,
  type TimerFunctions,
} from '../../runtime/schedule/long-timer.js';

const HOUR = 3_600_000;

/** Timers on a virtual clock: advance() runs what falls due, in order; nothing really waits. */
class VirtualTimers implements TimerFunctions {
  now = 0;
  readonly delays: number[] = [];
  /** How early a timer fires, as Node's may when its loop's clock lags. */
  early = 0;
  #pending = new Map<number, { at: number; callback: () => void }>();
  #next = 0;

  readonly set = (callback: () => void, ms: number): unknown => {
    // Node's own rule, which the long timer must never meet: beyond the limit, 1 ms.
    if (ms > MAX_TIMER_MS) throw new Error(`${ms} ms would fire after 1 ms`);
    this.delays.push(ms);
    // And Node's other: a delay under 1 ms is 1 ms.
    const delay = ms > 0 && ms < 1 ? 1 : ms;
    this.#pending.set(++this.#next, {
      at: Math.max(this.now, this.now + delay - this.early),
      callback,
    });
    return this.#next;
  };

  readonly clock = (): number => this.now;

  readonly clear = (handle: unknown): void => {
    this.#pending.delete(handle as number);
  };

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.#pending.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.#pending.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = end;
  }

  get pending(): number {
    return this.#pending.size;
  }
}

t.test('a delay within the limit is one plain timer', async (t) => {
  for (const ms of [0, 1, 250, MAX_TIMER_MS]) {
    const timers = new VirtualTimers();
    let fired = 0;
    setLongTimeout(() => fired++, ms, timers);
    t.same(timers.delays, [ms]);
    timers.advance(ms);
    t.equal(fired, 1, `${ms} ms`);
  }
});

t.test('1000 h fires after exactly 1000 h, in chunks the timers honour, never early', async (t) => {
  const rows: [string, number][] = [
    ['the limit + 1 ms', MAX_TIMER_MS + 1],
    ['1000 h (a run, a backoff, a message interval)', 1000 * HOUR],
    ['one year, the longest duration', 8760 * HOUR],
    ['start_at ten years ahead', 87_600 * HOUR],
  ];
  for (const [name, ms] of rows) {
    const timers = new VirtualTimers();
    let firedAt = -1;
    setLongTimeout(() => (firedAt = timers.now), ms, timers);
    timers.advance(ms - 1);
    t.equal(firedAt, -1, `${name}: not fired 1 ms before`);
    timers.advance(1);
    t.equal(firedAt, ms, `${name}: fired on time`);
    t.equal(
      timers.delays.reduce((a, b) => a + b, 0),
      ms,
    );
    t.ok(timers.delays.every((d) => d <= MAX_TIMER_MS));
    t.equal(timers.pending, 0);
  }
});

t.test('a timer Node fires early is re-armed for the rest: the whole is never early', async (t) => {
  for (const ms of [3000, 1000 * HOUR]) {
    const timers = new VirtualTimers();
    timers.early = 0.25;
    let firedAt = -1;
    setLongTimeout(() => (firedAt = timers.now), ms, timers);
    timers.advance(ms - 0.01);
    t.equal(firedAt, -1, `${ms} ms: not fired before its end`);
    timers.advance(1);
    t.ok(firedAt >= ms && firedAt < ms + 1, `${ms} ms: fired ${firedAt - ms} ms after its end`);
    t.equal(timers.pending, 0);
  }
});

t.test('clear() cancels it in any chunk', async (t) => {
  const timers = new VirtualTimers();
  let fired = false;
  const timer = setLongTimeout(() => (fired = true), 1000 * HOUR, timers);
  timers.advance(MAX_TIMER_MS + 5);
  timer.clear();
  t.equal(timers.pending, 0);
  timers.advance(1000 * HOUR);
  t.equal(fired, false);
});

t.test('NaN and negative delays fire at once; Infinity never', async (t) => {
  for (const [ms, expected] of [
    [Number.NaN, 0],
    [-5, 0],
  ] as const) {
    const timers = new VirtualTimers();
    setLongTimeout(() => undefined, ms, timers);
    t.same(timers.delays, [expected]);
  }
  const timers = new VirtualTimers();
  let fired = false;
  setLongTimeout(() => (fired = true), Infinity, timers);
  timers.advance(10 * MAX_TIMER_MS);
  t.equal(fired, false);
});

t.test('sleepLong resolves at the end, or at once on abort', async (t) => {
  const timers = new VirtualTimers();
  let done = false;
  const sleeping = sleepLong(1000 * HOUR, undefined, timers).then(() => (done = true));
  timers.advance(1000 * HOUR - 1);
  await Promise.resolve();
  t.equal(done, false);
  timers.advance(1);
  await sleeping;
  t.equal(done, true);

  const stop = new AbortController();
  const cut = new VirtualTimers();
  const waiting = sleepLong(1000 * HOUR, stop.signal, cut);
  stop.abort();
  await waiting;
  t.equal(cut.pending, 0, 'the timer is cleared');

  const before = new VirtualTimers();
  await sleepLong(1000 * HOUR, AbortSignal.abort(), before);
  t.same(before.delays, [], 'an aborted signal arms nothing');
});
