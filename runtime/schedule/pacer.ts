/**
 * The limiter of the open model (spec §1.10) as a pure function of the schedule, after vegeta's
 * pacers: permit n's intended send time comes from the rate's integral, never from accumulated
 * sleeps or from the clock (STYLE.md rule 2), so the rate is exact over time at any resolution and
 * a late permit keeps the time it should have been sent at.
 *
 * Permit m of the whole run is due when the run's integral of the rate reaches m:
 *   intended(m) = min { t : ∫₀ᵗ r = m }        (a constant rate R: m / R)
 * A segment with rate share 1/S and phase o/S paces every S-th of those permits from m = o
 * (split-plan.ts): its permit n is the run's permit m = (n + phase) / share.
 * A schedule with an end holds a known number of permits (`permits`, counted by permit-count.ts):
 * permit n ≥ permits is never due (intended time Infinity). The count is compared as an integer,
 * so no rounding of intended times near the end can add or lose a permit.
 */

/** The schedule of one segment's permits; times in microseconds since dispatch start. */
export interface Pacer {
  /** Intended send time of permit `n` (0-based, non-decreasing in n); Infinity when never due. */
  intendedTime(n: number): number;
  /** The segment's rate at `us`, permits/s (the live view's target rate). */
  rateAt(us: number): number;
}

/** A constant rate: intended(n) = (n + phase) / (rate · share). */
export class ConstantPacer implements Pacer {
  readonly #perUs: number;
  readonly #phase: number;
  readonly #permits: number;

  /** `ratePerSec` is this segment's share of the run's rate; at 0 no permit is ever due. */
  constructor(
    private readonly ratePerSec: number,
    phase = 0,
    permits = Infinity,
  ) {
    this.#perUs = ratePerSec / 1e6;
    this.#phase = phase;
    this.#permits = permits;
  }

  intendedTime(n: number): number {
    if (n >= this.#permits || this.#perUs <= 0) return Infinity;
    return (n + this.#phase) / this.#perUs;
  }

  rateAt(_us: number): number {
    return this.ratePerSec;
  }
}
