/**
 * The open-model dispatch loop of one segment (spec §1.4): before each permit it checks for
 * cancellation and the total limit, waits for the limiter (the Pacer), counts, and sends the
 * permit. It wakes on a timer, sends every permit due by then in one batch (a timer per permit
 * cannot keep 20,000/s), and sleeps until the next one is due. Every permit's time comes from the
 * Pacer, a pattern's as a constant rate's, so the loop knows nothing of rates. Dispatch ends at
 * `limit` permits, at `endUs`, or on stop(); then the permit stream is closed so workers exit
 * (spec §1.3.5). The schedule's own permit count is the Pacer's (permit-count.ts): once it is
 * spent, dispatch waits for `endUs`, so a run keeps its duration.
 */
import type { Pacer } from './pacer.js';
import type { PermitQueue } from './permit-queue.js';

/** Longest sleep, so a stop is seen promptly and a timer never overflows at rate 0. */
const MAX_SLEEP_US = 50_000;

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
      const next = this.#sendBy(Math.min(now, this.endUs));
      if (this.#sent >= this.limit || now >= this.endUs) break;
      await this.#sleep(Math.min(next, this.endUs, now + MAX_SLEEP_US) - now);
    }
    this.queue.close();
  }

  /** Stops dispatch (cancellation); the loop closes the queue. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#wake?.();
  }

  /** Sends the permits due by `horizon`; returns the next one's time. */
  #sendBy(horizon: number): number {
    let next = this.pacer.intendedTime(this.#sent);
    while (next <= horizon && next < this.endUs && this.#sent < this.limit) {
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
