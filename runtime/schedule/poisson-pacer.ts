/**
 * Arrivals as a Poisson process (`arrivals: poisson`, as Artillery and Locust offer): the gaps
 * between arrivals, measured in permits of the schedule's own integral, are independent Exp(1)
 * draws from a seeded source, so the process follows the rate over time (a ramp included: time is
 * rescaled through the integral) and the mean count over any stretch is the even schedule's.
 *   x₀ = 0,  xₙ = xₙ₋₁ − ln(1 − U),  intended(n) = base.intendedTime(xₙ)
 * with `base` the even pacer of the same share and no phase. Each segment draws its own process;
 * the sum of independent Poisson processes is the Poisson process of the summed rate. The number
 * of arrivals is random: the schedule ends at its end time, not at a count.
 */
import type { Random } from '../../model/random.js';
import type { Pacer } from './pacer.js';

/** Poisson arrivals over a base pacer's schedule. */
export class PoissonPacer implements Pacer {
  #n = 0;
  #x = 0;

  constructor(
    private readonly base: Pacer,
    private readonly random: Random,
  ) {}

  /** Arrival times are drawn in order: `n` never goes back by more than the last one asked. */
  intendedTime(n: number): number {
    while (this.#n < n) {
      this.#x -= Math.log(1 - this.random.next());
      this.#n++;
    }
    return this.base.intendedTime(this.#x);
  }

  rateAt(us: number): number {
    return this.base.rateAt(us);
  }
}
