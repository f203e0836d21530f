/**
 * Open model hand-off between the scheduler and the workers. A permit offered while a worker
 * waits goes to it at once; otherwise it waits in the backlog and is *late* (DESIGN.md §3). A
 * backlog permit older than the timeout is dropped when reached, so a stalled target cannot build
 * an unbounded queue; the backlog is also capped in length for the same reason.
 * With a pool that grows (an arrival-rate scenario's max_vus), a permit that finds no worker
 * waiting first asks for a new one, and waits for it (not late); when the pool is full it is
 * dropped at once (k6's dropped iterations) or, for the top-level form's fixed pool, late.
 */
import { DONE, WAITING, type PermitSource } from './permit-source.js';

/** Counts the queue reports to the recorder. */
export interface QueueEvents {
  late(): void;
  dropped(count: number): void;
}

/** A pool of workers that grows as permits find none free. */
export interface QueuePool {
  /** Starts one more worker (which will take from this queue); false when the pool is full. */
  grow(): boolean;
  /** A permit the full pool cannot take at once is dropped, instead of waiting late. */
  readonly dropWhenFull: boolean;
}

/** FIFO of intended times plus a stack of idle workers. */
export class PermitQueue implements PermitSource {
  readonly #waiters: ((intendedUs: number) => void)[] = [];
  #ring: Float64Array;
  #head = 0;
  #size = 0;
  #closed = false;

  constructor(
    private readonly now: () => number,
    private readonly maxAgeUs: number,
    private readonly maxBacklog: number,
    private readonly events: QueueEvents,
    private readonly pool?: QueuePool,
  ) {
    this.#ring = new Float64Array(64);
  }

  /** Permits waiting for a worker. */
  get backlog(): number {
    return this.#size;
  }

  /** Scheduler side: hands out one permit. */
  offer(intendedUs: number): void {
    const waiter = this.#waiters.pop();
    if (waiter !== undefined) {
      waiter(intendedUs);
      return;
    }
    if (this.pool !== undefined) {
      if (this.pool.grow()) {
        this.#push(intendedUs);
        return;
      }
      if (this.pool.dropWhenFull) {
        this.events.dropped(1);
        return;
      }
    }
    this.events.late();
    if (this.#size >= this.maxBacklog) {
      // The oldest permit is the stalest: drop it to make room.
      this.#shift();
      this.events.dropped(1);
    }
    this.#push(intendedUs);
  }

  /**
   * Worker side: the next permit, skipping (and counting) those that waited too long; WAITING
   * when there is none, and `waiter` gets the next one offered (or DONE at close).
   */
  take(waiter: (intendedUs: number) => void): number {
    if (this.#size > 0) {
      const oldest = this.now() - this.maxAgeUs;
      let stale = 0;
      while (this.#size > 0) {
        const intended = this.#shift();
        if (intended >= oldest) {
          if (stale > 0) this.events.dropped(stale);
          return intended;
        }
        stale++;
      }
      this.events.dropped(stale);
    }
    if (this.#closed) return DONE;
    this.#waiters.push(waiter);
    return WAITING;
  }

  /** Ends dispatch: idle workers exit; permits still in the backlog were never run and count as dropped. */
  close(): void {
    this.#closed = true;
    if (this.#size > 0) this.events.dropped(this.#size);
    this.#size = 0;
    for (const waiter of this.#waiters.splice(0)) waiter(DONE);
  }

  #push(value: number): void {
    if (this.#size === this.#ring.length) {
      const bigger = new Float64Array(this.#ring.length * 2);
      for (let i = 0; i < this.#size; i++)
        bigger[i] = this.#ring[(this.#head + i) % this.#ring.length]!;
      this.#ring = bigger;
      this.#head = 0;
    }
    this.#ring[(this.#head + this.#size) % this.#ring.length] = value;
    this.#size++;
  }

  #shift(): number {
    const value = this.#ring[this.#head]!;
    this.#head = (this.#head + 1) % this.#ring.length;
    this.#size--;
    return value;
  }
}
