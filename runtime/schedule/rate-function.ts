/**
 * Rates of the load patterns as pure functions of elapsed time (permits/s at t ms):
 *   ramp:  r(t) = from + (to - from) · min(1, t / duration)
 *   step:  r(t) = rate of the step whose span [start, start + duration) holds t
 *   spike: base for t < at; base + (peak - base) · (t - at) / rise while rising; peak for `hold`;
 *          peak - (peak - base) · (t - fallStart) / fall while falling; base until duration.
 * A pattern is complete at its total duration.
 */
import type { PatternPlan } from '../../dsl/plan/rate-plan.js';

/** Total length of a pattern, ms. */
export function patternDurationMs(pattern: PatternPlan): number {
  switch (pattern.type) {
    case 'ramp':
    case 'spike':
      return pattern.durationMs;
    case 'step':
      return pattern.steps.reduce((sum, step) => sum + step.durationMs, 0);
  }
}

/** The highest rate a pattern reaches. */
export function patternPeak(pattern: PatternPlan): number {
  switch (pattern.type) {
    case 'ramp':
      return Math.max(pattern.from, pattern.to);
    case 'step':
      return pattern.steps.reduce((peak, step) => Math.max(peak, step.rate), 0);
    case 'spike':
      return Math.max(pattern.base, pattern.peak);
  }
}

/** The rate at `t` ms (the last value holds after the end). */
export function rateAt(pattern: PatternPlan, t: number): number {
  switch (pattern.type) {
    case 'ramp':
      return (
        pattern.from +
        (pattern.to - pattern.from) * Math.min(1, Math.max(0, t) / pattern.durationMs)
      );
    case 'step': {
      let start = 0;
      for (const step of pattern.steps) {
        if (t < start + step.durationMs) return step.rate;
        start += step.durationMs;
      }
      return pattern.steps[pattern.steps.length - 1]!.rate;
    }
    case 'spike':
      return spikeRate(pattern, t);
  }
}

function spikeRate(p: Extract<PatternPlan, { type: 'spike' }>, t: number): number {
  const riseEnd = p.atMs + p.riseMs;
  const holdEnd = riseEnd + p.holdMs;
  const fallEnd = holdEnd + p.fallMs;
  if (t < p.atMs || t >= fallEnd) return p.base;
  if (t < riseEnd) return p.base + ((p.peak - p.base) * (t - p.atMs)) / p.riseMs;
  if (t < holdEnd) return p.peak;
  return p.peak - ((p.peak - p.base) * (t - holdEnd)) / p.fallMs;
}
