/**
 * Where workers take permits from. A permit is the intended send time of one iteration in
 * microseconds since dispatch start, or NO_INTENDED_TIME in the closed model; DONE ends a worker.
 * take() answers synchronously when it can; otherwise it keeps the worker's waiter, a callback
 * the worker binds once, and calls it with the next permit. No promise or closure is made per
 * permit: at 1,000/s against a slow target every permit finds a worker waiting.
 */

/** take() result that tells a worker to exit. */
export const DONE = -2;
/** take() result: no permit now; the waiter gets the next one (or DONE) later. */
export const WAITING = -3;
/** Intended time of a closed-model permit (there is no schedule). */
export const NO_INTENDED_TIME = -1;

/** A stream of permits. */
export interface PermitSource {
  /** A permit now, or WAITING, and then `waiter` is called once with the next permit or DONE. */
  take(waiter: (intendedUs: number) => void): number;
  /** Ends the stream: waiting and later takers get DONE. */
  close(): void;
}

/** Closed model: a permit whenever a worker is free, until `limit` permits or close(). */
export class ClosedSource implements PermitSource {
  #left: number;
  #closed = false;

  constructor(limit: number | undefined) {
    this.#left = limit ?? Infinity;
  }

  /** Permits handed out so far are counted down from the limit. */
  take(): number {
    if (this.#closed || this.#left <= 0) return DONE;
    this.#left--;
    return NO_INTENDED_TIME;
  }

  close(): void {
    this.#closed = true;
  }
}
