/**
 * The pattern controller of spec §1.10: it sets the pattern's rate at elapsed time 0, then every
 * 100 ms of the schedule sets the rate for the next 100 ms on the arrival controller (the Pacer).
 * It keeps no timer: the Scheduler applies each change at its own schedule time, before sending
 * the permits due after it, so a late wake-up neither stretches a step nor gives a permit the
 * wrong rate, and the run ends where the schedule does (the Scheduler's end), never racing it.
 *
 * Tick k covers [k·100, min((k + 1)·100, end)) ms and sets the tick's mean rate,
 *   rate_k = (permitsBy(b) - permitsBy(a)) / (b - a)
 * so the Pacer's count at every tick boundary is the pattern's exact integral (rate-function.ts):
 * a ramp or a spike whose corners fall between ticks sends the permits its rate integrates to.
 */
import type { PatternPlan } from '../../dsl/plan/rate-plan.js';
import type { Pacer } from './pacer.js';
import { permitsBy } from './rate-function.js';

/** Update period of the controller (spec §8). */
export const PATTERN_TICK_MS = 100;

/** Rate changes the Scheduler applies at their own schedule times. */
export interface RateChanges {
  /** Schedule time of the next change, µs; Infinity when there is none. */
  readonly nextUs: number;
  /** Applies the change due at nextUs. */
  apply(): void;
}

/** Drives a Pacer's rate from a pattern, tick by tick, as the Scheduler asks. */
export class PatternController implements RateChanges {
  #tick = 0;

  constructor(
    private readonly pattern: PatternPlan,
    /** This segment's share of the pattern's rate. */
    private readonly share: number,
    private readonly pacer: Pacer,
    /** Where the schedule ends, ms (the pattern's end or an earlier duration). */
    private readonly endMs: number,
  ) {
    this.pacer.setRate(this.#meanRate(0), 0);
  }

  /** Schedule time of the next tick, µs; Infinity once the schedule has ended. */
  get nextUs(): number {
    const atMs = (this.#tick + 1) * PATTERN_TICK_MS;
    return atMs < this.endMs ? atMs * 1000 : Infinity;
  }

  /** Applies the next tick's rate at the tick's own time. */
  apply(): void {
    this.#tick++;
    this.pacer.setRate(this.#meanRate(this.#tick), this.#tick * PATTERN_TICK_MS * 1000);
  }

  /** This segment's mean rate over tick `k`, permits/s. */
  #meanRate(k: number): number {
    const a = k * PATTERN_TICK_MS;
    const b = Math.min(a + PATTERN_TICK_MS, this.endMs);
    if (b <= a) return 0;
    return (
      (((permitsBy(this.pattern, b) - permitsBy(this.pattern, a)) * 1000) / (b - a)) * this.share
    );
  }
}
