/**
 * How many permits an open-model schedule holds. Permit m of the whole run (over every thread and
 * distributed segment) is due when the integral of the rate reaches m, so a schedule that ends at
 * D holds
 *   N = round(∫₀ᴰ r(t) dt)        (a constant rate R: N = round(R × D))
 * permits, the last one due strictly before D (m = N - 1 ≤ ∫ - 1/2). Counting them as an integer
 * here, instead of comparing floating-point intended times with D (60 / 20 per s came out
 * 2999999.9999999995 µs, under 3 s, and sent a 61st permit), makes the count exact for every rate.
 */
import type { RatePlan } from '../../model/plan/rate-plan.js';
import { patternDurationMs, permitsBy } from './rate-function.js';

/** When a schedule's dispatch ends, ms after its start (Infinity when nothing bounds it in time). */
export function scheduleEndMs(rate: RatePlan, durationMs: number | undefined): number {
  const pattern = rate.kind === 'pattern' ? patternDurationMs(rate.pattern) : Infinity;
  return Math.min(durationMs ?? Infinity, pattern);
}

/** Permits a whole schedule holds; undefined in the closed model or with no end. */
export function scheduledPermits(
  rate: RatePlan,
  durationMs: number | undefined,
): number | undefined {
  const endMs = scheduleEndMs(rate, durationMs);
  if (!Number.isFinite(endMs)) return undefined;
  switch (rate.kind) {
    case 'unlimited':
      return undefined;
    case 'constant':
      return Math.round((rate.rate * endMs) / 1000);
    case 'pattern':
      return Math.round(permitsBy(rate.pattern, endMs));
  }
}
