/**
 * A retry budget, as Finagle's: retries may be at most `ratio` of requests, plus a floor of
 * `minPerSec` retries per second so a small run still retries. It keeps a 5xx storm from being
 * amplified by retries. Token bucket, times passed in (pure):
 *   each request deposits `ratio` tokens; time deposits `minPerSec` tokens per second;
 *   the balance is capped at `minPerSec · 10 + ratio · 100` (about ten seconds' worth);
 *   a retry withdraws one token, and is refused when less than one is left.
 */

/** Token bucket for retries. */
export class RetryBudget {
  #balance: number;
  #lastUs: number;
  readonly #cap: number;

  constructor(
    private readonly ratio: number,
    private readonly minPerSec: number,
    startUs: number,
  ) {
    this.#cap = minPerSec * 10 + ratio * 100;
    this.#balance = minPerSec;
    this.#lastUs = startUs;
  }

  /** A request was made. */
  deposit(): void {
    this.#balance = Math.min(this.#cap, this.#balance + this.ratio);
  }

  /** True (and one token spent) when a retry is allowed at `nowUs`. */
  tryWithdraw(nowUs: number): boolean {
    const elapsedSec = Math.max(0, nowUs - this.#lastUs) / 1e6;
    this.#lastUs = nowUs;
    this.#balance = Math.min(this.#cap, this.#balance + elapsedSec * this.minPerSec);
    // Tolerance: a hundred deposits of 0.1 sum to 9.999…, which must still allow ten retries.
    if (this.#balance < 1 - 1e-9) return false;
    this.#balance -= 1;
    return true;
  }
}
