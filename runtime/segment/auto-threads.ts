/**
 * `threads: auto`, from measurements on this project's 2-core machines (docs/performance.md):
 * one thread holds a fixed rate of 5,000/s within 1% and reaches most of a core's worth of
 * closed-model throughput, while a second thread on a 2-core machine competes with the target or
 * the OS for the other core. So: one thread on 1–2 cores or for rates a thread holds alone;
 * otherwise one per core but one (left to the OS and the network stack), at most 8, never more
 * than there are workers (all scenarios', at their most), the rate being all arrival-rate
 * scenarios' peaks summed.
 */
import type { Plan } from '../../model/plan/plan.js';
import { maxVus } from '../../model/plan/scenario-plan.js';
import { patternPeak } from '../schedule/rate-function.js';

/** Fixed rates up to this many permits per second run in one thread. */
export const ONE_THREAD_RATE = 5000;

/** The number of threads for a plan on a machine with `cores` cores. */
export function resolveThreads(plan: Plan, cores: number): number {
  if (plan.threads !== 'auto') return plan.threads;
  let rate = 0;
  let vus = 0;
  for (const { executor } of plan.scenarios) {
    vus += maxVus(executor);
    if (executor.kind !== 'arrival-rate') rate = Infinity;
    else
      rate +=
        executor.rate.kind === 'constant' ? executor.rate.rate : patternPeak(executor.rate.pattern);
  }
  if (cores <= 2 || rate <= ONE_THREAD_RATE) return 1;
  return Math.max(1, Math.min(cores - 1, 8, vus));
}
