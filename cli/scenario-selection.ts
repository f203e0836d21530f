/**
 * `--only name,…` and `--smoke` (k6 2.3's `--scenario name,…` and `--once`; barrage's
 * `--scenario` names a file): the run keeps only the named scenarios, each as written (its
 * executor, start and tags), and a smoke run does each kept scenario's iteration once, with one
 * virtual user, from the start. Applied to the loaded Plan, so `validate` shows what `run` runs.
 */
import { closest } from '../dsl/grammar/did-you-mean.js';
import type { ConfigIssue } from '../dsl/issues.js';
import type { Plan } from '../model/plan/plan.js';
import type { ExecutorPlan, ScenarioPlan } from '../model/plan/scenario-plan.js';

/** What the flags ask for. */
export interface ScenarioSelection {
  /** `--only`: the names, comma-separated; undefined keeps every scenario. */
  readonly only: string | undefined;
  readonly smoke: boolean;
}

/** One iteration, one virtual user. */
const ONCE: ExecutorPlan = {
  kind: 'vus',
  vus: 1,
  durationMs: undefined,
  iterations: 1,
  perVu: false,
};

/** The plan with only the selected scenarios (smoke: each once); the issues of a wrong name. */
export function selectScenarios(
  plan: Plan,
  selection: ScenarioSelection,
): { plan: Plan; issues: ConfigIssue[] } {
  const names = plan.scenarios.map((s) => s.name);
  const wanted = selection.only?.split(',').map((name) => name.trim());
  const issues: ConfigIssue[] = [];
  for (const name of wanted ?? []) {
    if (names.includes(name)) continue;
    const guess = closest(name, names);
    issues.push({
      code: 'invalid_value',
      source: { kind: 'flag', flag: '--only' },
      path: ['scenarios'],
      expected: `names of the run's scenarios: ${names.join(', ')}`,
      actual: name === '' ? 'an empty name' : `"${name}"`,
      ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
    });
  }
  if (issues.length > 0) return { plan, issues };
  const kept = plan.scenarios.filter((s) => wanted?.includes(s.name) ?? true);
  const scenarios = selection.smoke ? kept.map(once) : kept;
  return { plan: { ...plan, scenarios }, issues };
}

/** A scenario's iteration once, by one virtual user, at the start of the run. */
function once(scenario: ScenarioPlan): ScenarioPlan {
  return {
    ...scenario,
    written: `${scenario.written}, as a smoke run`,
    executor: ONCE,
    startMs: 0,
  };
}
