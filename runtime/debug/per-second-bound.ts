/**
 * At most `perSecond` things a second: a window opens with the first one taken after the last
 * window's second is over, and holds `perSecond` (the console lines' rule: console-lines.ts).
 * Time is passed in, so the bound is a pure function of the calls.
 */

/** Counts what a window takes; refuses the rest of it. */
export class PerSecondBound {
  #windowStartMs = Number.NEGATIVE_INFINITY;
  #taken = 0;

  constructor(private readonly perSecond: number) {}

  /** True when one more fits in the window of `nowMs` (and it is counted). */
  take(nowMs: number): boolean {
    if (nowMs - this.#windowStartMs >= 1000) {
      this.#windowStartMs = nowMs;
      this.#taken = 0;
    }
    if (this.#taken >= this.perSecond) return false;
    this.#taken++;
    return true;
  }
}
