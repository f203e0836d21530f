/**
 * A segment's waits of its scenario's virtual users: sleep() and the timers of setTimeout and
 * setInterval (sandbox/isolate/timers.ts arms each timeout, and each period of an interval, as one
 * wait). A wait settles with nothing when its time comes, when a hard stop wakes every one (one
 * listener for all: an AbortSignal's listeners cost O(n) each to add and remove, and 200,000 of
 * them held a segment for minutes), or, for a timer, when the script clears it or its iteration
 * ends: a cleared timer frees its place among the user's waiting calls at once.
 */
import type { Plan } from '../../model/plan/plan.js';
import { longestWaitMs } from '../../sandbox/waiting-calls.js';
import type { Settle, Settled } from './settled.js';
import type { ScriptUser } from './script-user.js';

/** How a wait settles: with no value. */
const NOTHING: Settled = { kind: 'value', json: '' };

/** A wait in progress; `key` is its timer's id in the isolate (-1 for a sleep()). */
interface Wait {
  readonly user: ScriptUser;
  readonly settle: Settle;
  readonly key: number;
  timer: NodeJS.Timeout | undefined;
}

/** The waits of one segment's virtual users. */
export class ScriptSleeps {
  readonly #waits = new Set<Wait>();
  /** Timers by user, then by their id in the isolate. */
  readonly #timers = new Map<ScriptUser, Map<number, Wait>>();
  readonly #woke = (wait: Wait): void => {
    clearTimeout(wait.timer);
    if (!this.#waits.delete(wait)) return;
    if (wait.key >= 0) this.#timers.get(wait.user)?.delete(wait.key);
    wait.user.sleeping--;
    wait.settle(NOTHING);
  };

  constructor(
    private readonly plan: Plan,
    private readonly hardStop: AbortSignal,
  ) {}

  /**
   * Settles `settle` after `ms` (a duration that is no number waits none), at most the run's
   * longest wait (an hour, or `timeout`: sandbox/waiting-calls.ts); `key` names a timer.
   */
  wait(user: ScriptUser, ms: number, settle: Settle, key = -1): void {
    if (this.hardStop.aborted) {
      settle(NOTHING);
      return;
    }
    const bounded = Number.isFinite(ms) ? Math.min(Math.max(0, ms), longestWaitMs(this.plan)) : 0;
    const wait: Wait = { user, settle, key, timer: undefined };
    if (key >= 0) {
      let own = this.#timers.get(user);
      if (own === undefined) this.#timers.set(user, (own = new Map<number, Wait>()));
      const earlier = own.get(key);
      if (earlier !== undefined) this.#woke(earlier);
      own.set(key, wait);
    }
    wait.timer = setTimeout(this.#woke, bounded, wait);
    this.#waits.add(wait);
    user.sleeping++;
  }

  /** The script cleared timer `key`: its wait ends now. */
  clear(user: ScriptUser, key: number): void {
    const wait = this.#timers.get(user)?.get(key);
    if (wait !== undefined) this.#woke(wait);
  }

  /** The user's iteration is over: its timers end (the isolate has forgotten them). */
  endIteration(user: ScriptUser): void {
    const own = this.#timers.get(user);
    if (own === undefined) return;
    for (const wait of [...own.values()]) this.#woke(wait);
    this.#timers.delete(user);
  }

  /** A hard stop: every wait ends at once. */
  wakeAll(): void {
    for (const wait of this.#waits) this.#woke(wait);
  }

  /** The segment is over: no timer is left running. */
  close(): void {
    for (const wait of this.#waits) clearTimeout(wait.timer);
    this.#waits.clear();
    this.#timers.clear();
  }
}
