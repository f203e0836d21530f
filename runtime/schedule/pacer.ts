/**
 * The limiter of the open model: it paces permits at a rate that the arrival controller may change
 * while the run goes (spec §1.10). Permit n's intended send time comes from the schedule, never
 * from accumulated sleeps (STYLE.md rule 2; vegeta's pacer), so the rate is exact over time and a
 * late permit keeps the time it should have been sent at.
 *
 * Between reconfigurations the rate r (permits/µs) is constant, so with an anchor (t0, n0):
 *   expected(t) = n0 + (t - t0) · r        intended(n) = t0 + (n - n0) / r
 * setRate(r', t) re-anchors at (t, expected(t)) under the old rate, so the count of permits is the
 * integral of the piecewise-constant rate: no permit is lost or invented by a change.
 * A segment k of n starts with n0 = -phase (phase = k/n), which staggers the segments' permits
 * evenly instead of sending them in bursts at the same instants.
 * A schedule with an end holds a known number of permits (`permits`, counted by
 * permit-count.ts): permit n ≥ permits is never due (intended time Infinity). The count is compared
 * as an integer, so no rounding of intended times near the end can add or lose a permit.
 */

/** Pure pacing state; times in microseconds since dispatch start. */
export class Pacer {
  #t0 = 0;
  #n0: number;
  #ratePerUs: number;
  readonly #permits: number;

  /** `ratePerSec` may be 0 (no permits until the rate changes); `permits` caps the schedule. */
  constructor(ratePerSec: number, phase = 0, permits = Infinity) {
    this.#ratePerUs = ratePerSec / 1e6;
    this.#n0 = -phase;
    this.#permits = permits;
  }

  /** The current rate, permits per second. */
  get rate(): number {
    return this.#ratePerUs * 1e6;
  }

  /** Permits due by time `nowUs` (fractional). */
  expected(nowUs: number): number {
    return this.#n0 + (nowUs - this.#t0) * this.#ratePerUs;
  }

  /** Intended send time of permit `n` (0-based); Infinity while the rate is 0 or past the schedule. */
  intendedTime(n: number): number {
    if (n >= this.#permits) return Infinity;
    if (this.#ratePerUs <= 0) return n < this.#n0 ? this.#t0 : Infinity;
    return this.#t0 + (n - this.#n0) / this.#ratePerUs;
  }

  /** Changes the rate at `nowUs`, keeping the permits already due. */
  setRate(ratePerSec: number, nowUs: number): void {
    const due = this.expected(nowUs);
    this.#t0 = nowUs;
    this.#n0 = due;
    this.#ratePerUs = ratePerSec / 1e6;
  }
}
