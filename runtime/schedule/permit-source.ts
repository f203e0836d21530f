/**
 * Where workers take permits from. A permit is the intended send time of one iteration in
 * microseconds since dispatch start, or NO_INTENDED_TIME in the closed model; DONE ends a worker.
 * take() answers synchronously when it can, so the busy path allocates no promise.
 */

/** take() result that tells a worker to exit. */
export const DONE = -2;
/** Intended time of a closed-model permit (there is no schedule). */
export const NO_INTENDED_TIME = -1;

/** A stream of permits. */
export interface PermitSource {
  take(): number | Promise<number>;
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
