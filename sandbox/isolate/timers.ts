/**
 * setTimeout, setInterval, clearTimeout and clearInterval in a virtual user's context (k6/timers,
 * and the web's): each timeout, and each period of an interval, is one wait on the host
 * (runtime/script/script-sleeps.ts, a `timer` operation), so timers share sleep()'s bounds: at
 * most MAX_WAITING_CALLS waiting calls of the virtual user, no wait past the run's longest. As in
 * k6, an iteration is over once the timers it set have run or been cleared (an interval runs until
 * it is cleared, or the run's stop cuts the iteration); a callback that throws fails the
 * iteration, and the timers left are cleared. Timers die with their iteration: a new one starts
 * with none, and setup(), teardown() and the top level set none.
 */
import { stringify } from './intrinsics.js';
import { hostCall, Refusal, room, wait } from './vu-host.js';

/** A timer set: its callback and arguments, its period, whether it repeats. */
interface Timer {
  readonly fn: (...args: unknown[]) => unknown;
  readonly args: unknown[];
  readonly ms: number;
  readonly repeat: boolean;
}

const live = new Map<number, Timer>();
let nextTimer = 0;
/** True while an iteration runs: timers may be set. */
let open = false;
/** The first error a callback threw in this iteration. */
let failure: { error: unknown } | undefined;
/** Resolves the iteration's wait for its timers, once none is left. */
let drained: (() => void) | undefined;

const settleIfDone = (): void => {
  if (live.size > 0 || drained === undefined) return;
  const done = drained;
  drained = undefined;
  done();
};

const fire = (id: number): void => {
  const timer = live.get(id);
  if (timer === undefined) return;
  try {
    timer.fn(...timer.args);
  } catch (error) {
    fail(error);
  }
  if (!timer.repeat) live.delete(id);
  else if (live.has(id)) arm(id, timer);
};

const arm = (id: number, timer: Timer): void => {
  void wait('timer', stringify([id, timer.ms])).then((settled) => {
    if (settled instanceof Refusal) fail(new Error(settled.message));
    else fire(id);
    settleIfDone();
  });
};

/** A callback threw (or the host refused a timer): the iteration fails, its timers are cleared. */
const fail = (error: unknown): void => {
  failure ??= { error };
  for (const key of live.keys()) hostCall('timer.clear', key);
  live.clear();
};

const set = (name: string, repeat: boolean, fn: unknown, ms: unknown, args: unknown[]) => {
  if (typeof fn !== 'function') throw new TypeError(name + '(): the callback must be a function');
  if (!open) throw new Error(name + '(): timers are set inside an iteration only');
  room(name);
  const delay = Number(ms);
  const timer: Timer = {
    fn: fn as Timer['fn'],
    args,
    ms: Number.isFinite(delay) && delay > 0 ? delay : 0,
    repeat,
  };
  const id = ++nextTimer;
  live.set(id, timer);
  arm(id, timer);
  return id;
};

const clear = (id: unknown): void => {
  const key = Number(id);
  if (!live.delete(key)) return;
  hostCall('timer.clear', key);
  settleIfDone();
};

/** The timer functions, as globals of the context. */
export const timerGlobals = {
  setTimeout: (fn: unknown, ms?: unknown, ...args: unknown[]) =>
    set('setTimeout', false, fn, ms, args),
  setInterval: (fn: unknown, ms?: unknown, ...args: unknown[]) =>
    set('setInterval', true, fn, ms, args),
  clearTimeout: clear,
  clearInterval: clear,
};

/** An iteration begins: timers may be set, none is left from an earlier one. */
export function openTimers(): void {
  live.clear();
  failure = undefined;
  drained = undefined;
  open = true;
}

/**
 * The iteration's function has returned: resolves once its timers are done, and throws what a
 * callback threw. Timers may not be set afterwards.
 */
export async function closeTimers(): Promise<void> {
  if (live.size > 0) await new Promise<void>((resolve) => (drained = resolve));
  open = false;
  if (failure !== undefined) throw failure.error;
}

/** The iteration failed: its timers are cleared. */
export function dropTimers(): void {
  for (const key of live.keys()) hostCall('timer.clear', key);
  live.clear();
  open = false;
  drained = undefined;
}
