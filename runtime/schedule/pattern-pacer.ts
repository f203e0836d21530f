/**
 * A pattern's pacer: the exact inverse of the pattern's permit integral (rate-function.ts), so a
 * ramp, a step or a spike is paced permit by permit at any resolution, with no controller
 * sampling its rate (pacer.ts says how a segment's permit n maps to the run's permit m).
 *
 * The pattern is a list of linear pieces, the last rate holding after its end (a tail piece of
 * infinite length). Piece i starts at sᵢ µs with Dᵢ permits due, rate aᵢ (permits/µs) and slope
 * kᵢ (permits/µs²); within it, τ µs after its start,
 *   permits(sᵢ + τ) = Dᵢ + aᵢ·τ + kᵢ·τ²/2
 * Permit m is due when the integral passes m, at inf { t : permits(t) > m }: the first piece
 * whose end count Dᵢ₊₁ exceeds m, d = m - Dᵢ into it, where aᵢ·τ + kᵢ·τ²/2 = d has the root
 *   τ = 2d / (aᵢ + √(aᵢ² + 2·kᵢ·d))
 * Where the rate is positive that is the one t with permits(t) = m. Where it is 0 (a step or a
 * base of rate 0, a tail of rate 0) the integral is flat, and a permit due at its level waits for
 * the rate to resume, so a pause sends nothing, not even at its start; past a tail of rate 0 no
 * permit is due. The root's form does not cancel when kᵢ is small and is d / aᵢ at kᵢ = 0.
 * Floating point: m and the Dᵢ are sums that may miss an integer by a few ulps, so m within ε of
 * a piece's end count belongs to the next piece (otherwise it could land before a pause instead
 * of after it); the discriminant, which rounding near the end of a falling piece may take below
 * 0, is held at 0; and τ is held within the piece, so intended times never decrease.
 */
import type { PatternPlan } from '../../model/plan/rate-plan.js';
import type { Pacer } from './pacer.js';
import { patternPieces, rateAt } from './rate-function.js';

/** Relative ε of the permit counts: far above rounding (1e-16), far below a permit up to 1e9. */
const EPSILON = 1e-12;

/** Inverts a pattern's integral for one segment (its share of the rate and its phase). */
export class PatternPacer implements Pacer {
  readonly #startUs: Float64Array;
  readonly #lengthUs: Float64Array;
  readonly #rate: Float64Array;
  readonly #slope: Float64Array;
  /** Permits of the run due at each piece's start, and (shifted by one) at its end. */
  readonly #due: Float64Array;

  constructor(
    private readonly pattern: PatternPlan,
    private readonly share: number,
    private readonly phase = 0,
    private readonly permits = Infinity,
  ) {
    const pieces = patternPieces(pattern);
    const last = pieces[pieces.length - 1]!;
    pieces.push({ startMs: last.endMs, endMs: Infinity, from: last.to, to: last.to });
    const count = pieces.length;
    this.#startUs = new Float64Array(count);
    this.#lengthUs = new Float64Array(count);
    this.#rate = new Float64Array(count);
    this.#slope = new Float64Array(count);
    this.#due = new Float64Array(count + 1);
    pieces.forEach((piece, i) => {
      const length = (piece.endMs - piece.startMs) * 1000;
      this.#startUs[i] = piece.startMs * 1000;
      this.#lengthUs[i] = length;
      this.#rate[i] = piece.from / 1e6;
      this.#slope[i] = piece.to === piece.from ? 0 : (piece.to - piece.from) / 1e6 / length;
      // The trapezoid is the piece's integral; at rate 0 the tail adds nothing (0 · ∞ is NaN).
      const permits = piece.from + piece.to === 0 ? 0 : (length * (piece.from + piece.to)) / 2e6;
      this.#due[i + 1] = this.#due[i]! + permits;
    });
  }

  intendedTime(n: number): number {
    if (n >= this.permits) return Infinity;
    const m = (n + this.phase) / this.share;
    const i = this.#pieceOf(m);
    if (i < 0) return Infinity;
    const d = m - this.#due[i]!;
    if (d <= 0) return this.#startUs[i]!;
    const a = this.#rate[i]!;
    const root = Math.sqrt(Math.max(0, a * a + 2 * this.#slope[i]! * d));
    return this.#startUs[i]! + Math.min((2 * d) / (a + root), this.#lengthUs[i]!);
  }

  rateAt(us: number): number {
    return rateAt(this.pattern, us / 1000) * this.share;
  }

  /** The first piece whose end count exceeds m by more than ε (binary search); -1 if none does. */
  #pieceOf(m: number): number {
    const above = m + EPSILON * (1 + m);
    let low = 0;
    let high = this.#startUs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#due[mid + 1]! > above) high = mid;
      else low = mid + 1;
    }
    return low < this.#startUs.length ? low : -1;
  }
}
