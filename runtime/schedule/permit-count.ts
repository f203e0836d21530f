/**
 * How many permits an open-model schedule holds. Permit m of the whole run (over every thread and
 * distributed segment) is due when the integral of the rate reaches m, so a schedule that ends at
 * D holds
 *   N = round(∫₀ᴰ r(t) dt)        (a constant rate R: N = round(R × D))
 * permits, the last one due strictly before D (m = N - 1 ≤ ∫ - 1/2). Counting them as an integer
 * here, instead of comparing floating-point intended times with D (60 / 20 per s came out
 * 2999999.9999999995 µs, under 3 s, and sent a 61st permit), makes the count exact for every rate.
 */
import type { Plan } from '../../dsl/plan/plan.js';
import { patternDurationMs, permitsBy } from './rate-function.js';

/** When dispatch ends, ms after start (Infinity when only a request count bounds it). */
export function scheduleEndMs(plan: Plan): number {
  const pattern = plan.rate.kind === 'pattern' ? patternDurationMs(plan.rate.pattern) : Infinity;
  return Math.min(plan.durationMs ?? Infinity, pattern);
}

/** Permits the whole run's schedule holds; undefined in the closed model or with no end. */
export function scheduledPermits(plan: Plan): number | undefined {
  const endMs = scheduleEndMs(plan);
  if (!Number.isFinite(endMs)) return undefined;
  switch (plan.rate.kind) {
    case 'unlimited':
      return undefined;
    case 'constant':
      return Math.round((plan.rate.rate * endMs) / 1000);
    case 'pattern':
      return Math.round(permitsBy(plan.rate.pattern, endMs));
  }
}
