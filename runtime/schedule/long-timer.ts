/**
 * Timers for user durations. Node fires a setTimeout whose delay is above 2^31 − 1 ms (24.8 days)
 * after 1 ms, with only a warning, and durations go up to a year (`duration: 1000h`, retry
 * backoffs, message intervals) while `start_at` has no bound at all. A long timer waits in chunks
 * of at most that limit, re-arming until the whole delay has passed:
 *
 *   chunk_k = min(remaining_k, MAX_TIMER_MS),   remaining_{k+1} = remaining_k − chunk_k
 *
 * Node may fire a timer early by up to the time its event loop has spent in the current turn: a
 * timer's start is the loop's cached clock, not the hour it was armed at. So the remainder is
 * measured on the monotonic clock each time a chunk fires, and re-armed while any is left: the
 * whole fires no earlier than `ms`. A delay within the limit is one plain timer, re-armed only when
 * Node fires it early.
 */

/** The longest delay Node's timers honour, in ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The timer functions a long timer arms: Node's by default, a test's own without real waiting. */
export interface TimerFunctions {
  readonly set: (callback: () => void, ms: number) => unknown;
  readonly clear: (handle: unknown) => void;
  /** A monotonic clock, in ms. */
  readonly clock: () => number;
}

const NODE_TIMERS: TimerFunctions = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
  clock: () => performance.now(),
};

/** A pending long timer. */
export interface LongTimeout {
  /** Cancels it; the callback will not run. */
  clear(): void;
}

/** Calls `callback` once `ms` have passed, however long that is (NaN and negatives: at once). */
export function setLongTimeout(
  callback: () => void,
  ms: number,
  timers: TimerFunctions = NODE_TIMERS,
): LongTimeout {
  const delay = Number.isFinite(ms) ? Math.max(0, ms) : ms > 0 ? Infinity : 0;
  const deadline = timers.clock() + delay;
  let handle: unknown;
  const arm = (remaining: number): void => {
    handle = timers.set(fire, Math.min(remaining, MAX_TIMER_MS));
  };
  const fire = (): void => {
    const remaining = deadline - timers.clock();
    if (remaining > 0) arm(remaining);
    else callback();
  };
  arm(delay);
  return { clear: () => timers.clear(handle) };
}

/** Resolves once `ms` have passed, or at once when `signal` aborts (then or before). */
export function sleepLong(
  ms: number,
  signal?: AbortSignal,
  timers: TimerFunctions = NODE_TIMERS,
): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      timer.clear();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setLongTimeout(done, ms, timers);
    signal?.addEventListener('abort', done, { once: true });
  });
}
