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
  /** The pending wake-up; undefined while one runs and once dispatch has ended. */
  #timer: NodeJS.Timeout | undefined;
  /** One Timeout, refreshed while the delay stays the same (1 ms from 1,000/s up). */
  #reusable: NodeJS.Timeout | undefined;
  #delayMs = 0;
  #done: (() => void) | undefined;

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
  run(): Promise<void> {
    return new Promise((resolve) => {
      this.#done = resolve;
      this.#wake();
    });
  }

  /** Stops dispatch (cancellation) and closes the queue; a wake-up under way ends itself. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#finish();
  }

  /** One wake-up: sends what is due, then sleeps until the next permit (a callback, no promise). */
  readonly #wake = (): void => {
    this.#timer = undefined;
    const now = this.now();
    // Permits due before the end are sent even when this wake-up came late, past the end.
    const next = this.#sendBy(Math.min(now, this.endUs));
    if (this.#stopped || this.#sent >= this.limit || now >= this.endUs) this.#finish();
    else this.#sleep(Math.min(next, this.endUs, now + MAX_SLEEP_US) - now);
  };

  /** Sends the permits due by `horizon`; returns the next one's time. */
  #sendBy(horizon: number): number {
    let next = this.pacer.intendedTime(this.#sent);
    while (next <= horizon && next < this.endUs && this.#sent < this.limit && !this.#stopped) {
      this.queue.offer(next);
      this.#sent++;
      next = this.pacer.intendedTime(this.#sent);
    }
    return next;
  }

  #sleep(us: number): void {
    const ms = Math.max(1, Math.floor(us / 1000));
    if (this.#reusable !== undefined && ms === this.#delayMs) {
      this.#timer = this.#reusable.refresh();
      return;
    }
    this.#delayMs = ms;
    this.#reusable = setTimeout(this.#wake, ms);
    this.#timer = this.#reusable;
  }

  #finish(): void {
    this.#timer = undefined;
    this.queue.close();
    this.#done?.();
    this.#done = undefined;
  }
}
