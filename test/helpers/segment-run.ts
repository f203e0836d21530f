// A configuration validated, compiled and run to its end in this thread, through a real segment
// (scheduler, workers, deadline sweep), as `barrage run` would with one thread.
import { compilePlan } from '../../dsl/compile/compile-plan.js';
import type { Plan } from '../../model/plan/plan.js';
import { configSchema } from '../../dsl/schema/config-schema.js';
import { refineConfig } from '../../dsl/schema/refinements.js';
import { systemClock } from '../../runtime/schedule/clock.js';
import { summarize } from '../../runtime/metrics/summarize.js';
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { runSegment } from '../../runtime/segment/run-segment.js';
import { splitPlan } from '../../runtime/split/split-plan.js';

/** Validates and compiles a configuration as `barrage run` does. */
export function planOf(raw: Record<string, unknown>): Plan {
  const parsed = configSchema.safeParse({ threads: 1, seed: 7, ...raw });
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  const refined = refineConfig(parsed.data);
  if (refined.length > 0) throw new Error(JSON.stringify(refined));
  const { plan, issues } = compilePlan(parsed.data, {
    env: {},
    userAgent: 'barrage-test',
    fallbackSeed: 1,
  });
  if (issues.length > 0) throw new Error(JSON.stringify(issues));
  return plan;
}

/**
 * Runs a configuration to its end in this thread; `stop` and `hardStop` may be aborted by the test.
 */
export async function runInThread(
  raw: Record<string, unknown>,
  hardStop: AbortSignal = new AbortController().signal,
  stop: AbortSignal = new AbortController().signal,
): Promise<RunResult> {
  const plan = planOf(raw);
  const [spec] = splitPlan(plan, 1);
  const outcome = await runSegment(spec!, systemClock, {
    stop,
    hardStop,
  });
  return summarize(
    outcome.snapshot,
    plan.graph.endpoints.map((e) => e.name),
  );
}
