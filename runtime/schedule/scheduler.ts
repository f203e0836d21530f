/**
 * The open-model dispatch loop of one segment (spec §1.4): before each permit it checks for
 * cancellation and the total limit, waits for the limiter (the Pacer), counts, and sends the
 * permit. It wakes on a timer, sends every permit due by then in one batch (a timer per permit
 * cannot keep 20,000/s), and sleeps until the next one is due. A pattern's rate changes are
 * applied here, each at its own schedule time between the permits before and after it. Dispatch
 * ends at `limit` permits, at `endUs`, or on stop(); then the permit stream is closed so workers
 * exit (spec §1.3.5). The schedule's own permit count is the Pacer's (permit-count.ts): once it is
 * spent, dispatch waits for `endUs`, so a run keeps its duration.
 */
import type { Pacer } from './pacer.js';
import type { RateChanges } from './pattern-controller.js';
import type { PermitQueue } from './permit-queue.js';

/** Longest sleep, so a stop is seen promptly and a timer never overflows at rate 0. */
const MAX_SLEEP_US = 50_000;

/** No rate changes (a constant rate). */
const CONSTANT: RateChanges = { nextUs: Infinity, apply: () => undefined };

/** Dispatches paced permits into a queue. */
export class Scheduler {
  #sent = 0;
  #stopped = false;
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pacer: Pacer,
    private readonly queue: PermitQueue,
    private readonly now: () => number,
    private readonly limit: number,
    private readonly endUs: number,
    private readonly changes: RateChanges = CONSTANT,
  ) {}

  /** Permits dispatched so far. */
  get sent(): number {
    return this.#sent;
  }

  /** Runs until a limit or stop(); resolves after the queue is closed. */
  async run(): Promise<void> {
    while (!this.#stopped) {
      const now = this.now();
      // Permits due before the end are sent even when this wake-up came late, past the end.
      const horizon = Math.min(now, this.endUs);
      while (this.changes.nextUs <= horizon) {
        this.#sendBefore(horizon, this.changes.nextUs);
        this.changes.apply();
      }
      const next = this.#sendBefore(horizon, Infinity);
      if (this.#sent >= this.limit || now >= this.endUs) break;
      await this.#sleep(Math.min(next, this.changes.nextUs, this.endUs, now + MAX_SLEEP_US) - now);
    }
    this.queue.close();
  }

  /** Stops dispatch (cancellation); the loop closes the queue. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#wake?.();
  }

  /** Sends the permits due by `horizon` and before `changeUs`; returns the next one's time. */
  #sendBefore(horizon: number, changeUs: number): number {
    let next = this.pacer.intendedTime(this.#sent);
    while (next <= horizon && next < changeUs && next < this.endUs && this.#sent < this.limit) {
      this.queue.offer(next);
      this.#sent++;
      next = this.pacer.intendedTime(this.#sent);
    }
    return next;
  }

  #sleep(us: number): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      this.#timer = setTimeout(resolve, Math.max(1, Math.floor(us / 1000)));
    });
  }
}
