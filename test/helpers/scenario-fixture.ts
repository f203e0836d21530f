// The one scenario of a hand-built partial Plan, for tests of the split and the schedule.
import type { ExecutorPlan, ScenarioPlan } from '../../model/plan/scenario-plan.js';

/** A scenario named default running `executor`, from the start, over no traffic. */
export function scenarioFixture(executor: ExecutorPlan): ScenarioPlan {
  return {
    name: 'default',
    written: 'default',
    executor,
    startMs: 0,
    gracefulStopMs: 10_000,
    tags: {},
    picks: { items: [], cumulative: [], total: 0 },
    exec: undefined,
  };
}
