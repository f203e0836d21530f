/**
 * The pattern controller of spec §1.10: it reads the plan's rate at elapsed time 0 and sets it,
 * then every 100 ms asks the plan for the rate at the elapsed time and sets it on the arrival
 * controller (the Pacer, which the Scheduler reads); when the plan is complete it cancels the run
 * (onComplete). The elapsed time of tick k is taken as k × 100 ms, the tick's own time, and the
 * Pacer is re-anchored there: a timer that fires late (a busy event loop) then does not stretch a
 * step or a spike by its lateness, since the permit count follows the planned rate changes.
 */
import type { PatternPlan } from '../../dsl/plan/rate-plan.js';
import type { Pacer } from './pacer.js';
import { patternDurationMs, rateAt } from './rate-function.js';

/** Update period of the controller (spec §8). */
export const PATTERN_TICK_MS = 100;

/** Drives a Pacer's rate from a pattern. */
export class PatternController {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pattern: PatternPlan,
    /** This segment's share of the pattern's rate. */
    private readonly share: number,
    private readonly pacer: Pacer,
    /** µs since dispatch start. */
    private readonly now: () => number,
    /** Called after each change so a sleeping scheduler sees it. */
    private readonly onRateChange: () => void,
    private readonly onComplete: () => void,
  ) {}

  /** The rate this segment should run at, per second, at `ms`. */
  rateAt(ms: number): number {
    return rateAt(this.pattern, ms) * this.share;
  }

  /** Sets the initial rate and starts the 100 ms loop. */
  start(): void {
    this.pacer.setRate(this.rateAt(0), 0);
    const totalMs = patternDurationMs(this.pattern);
    let tick = 0;
    this.#timer = setInterval(() => {
      const nowMs = this.now() / 1000;
      // Every tick due by now, at its own time (a late timer catches up, not stretches).
      while ((tick + 1) * PATTERN_TICK_MS <= nowMs) {
        tick++;
        const atMs = tick * PATTERN_TICK_MS;
        if (atMs >= totalMs) {
          this.stop();
          this.onComplete();
          return;
        }
        this.pacer.setRate(this.rateAt(atMs), atMs * 1000);
      }
      this.onRateChange();
    }, PATTERN_TICK_MS);
  }

  /** Stops the loop. */
  stop(): void {
    clearInterval(this.#timer);
  }
}
