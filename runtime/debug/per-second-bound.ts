/**
 * At most `perSecond` things a second: a window opens with the first one taken after the last
 * window's second is over, and holds `perSecond` (the console lines' rule: console-lines.ts).
 * Time is passed in, so the bound is a pure function of the calls.
 */

/** Counts what a window takes; refuses the rest of it. */
export class PerSecondBound {
  #windowStartMs = Number.NEGATIVE_INFINITY;
  #taken = 0;

  /** `opened` is called as a new window opens, before it counts anything (the last one is over). */
  constructor(
    private readonly perSecond: number,
    private readonly opened: () => void = () => undefined,
  ) {}

  /** Opens a new window at `nowMs` when the last one's second is over. */
  roll(nowMs: number): void {
    if (nowMs - this.#windowStartMs < 1000) return;
    this.opened();
    this.#windowStartMs = nowMs;
    this.#taken = 0;
  }

  /** True when one more fits in the window of `nowMs` (and it is counted). */
  take(nowMs: number): boolean {
    this.roll(nowMs);
    if (this.#taken >= this.perSecond) return false;
    this.#taken++;
    return true;
  }
}
