/**
 * The scenarios of a plan as `validate` shows them: each one's executor as written, when it
 * starts, its load over time in words (VUs or rate, stages, limits), what it runs, and for a
 * ramping arrival rate its rate over time drawn as the pattern chart.
 */
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { Plan } from '../../dsl/plan/plan.js';
import {
  maxVus,
  type ExecutorPlan,
  type ScenarioPlan,
  type StagePlan,
} from '../../dsl/plan/scenario-plan.js';
import { renderRateChart } from './rate-chart.js';

/** Lines of the plan view for named scenarios (indented under `scenarios`). */
export function renderScenarios(plan: Plan): string[] {
  const width = Math.max(...plan.scenarios.map((s) => s.name.length));
  const lines = ['  scenarios'];
  for (const scenario of plan.scenarios) {
    lines.push(
      `    ${scenario.name.padEnd(width)}  ${scenario.written}, from ${formatDuration(scenario.startMs)}: ${describeLoad(scenario.executor)}; runs ${describeRuns(plan, scenario)}`,
    );
    const executor = scenario.executor;
    if (executor.kind === 'arrival-rate' && executor.rate.kind === 'pattern')
      for (const line of renderRateChart(executor.rate.pattern)) lines.push(`      ${line}`);
  }
  return lines;
}

function describeLoad(executor: ExecutorPlan): string {
  switch (executor.kind) {
    case 'vus': {
      const vus = `${executor.vus} VU${executor.vus === 1 ? '' : 's'}`;
      if (executor.iterations === undefined)
        return `${vus} for ${formatDuration(executor.durationMs ?? 0)}`;
      const each = executor.perVu ? ' each' : ' shared';
      const most =
        executor.durationMs === undefined ? '' : `, at most ${formatDuration(executor.durationMs)}`;
      return `${vus}, ${executor.iterations} iterations${each}${most}`;
    }
    case 'ramping-vus':
      return `${executor.startVus} VUs, then ${describeStages(executor.stages, ' VUs')} (graceful ramp-down ${formatDuration(executor.gracefulRampDownMs)})`;
    case 'arrival-rate': {
      const rate = executor.rate;
      const schedule =
        rate.kind === 'constant'
          ? `${rate.rate}/s${executor.durationMs === undefined ? '' : ` for ${formatDuration(executor.durationMs)}`}`
          : rate.pattern.type === 'stages'
            ? `${rate.pattern.start}/s, then ${describeStages(rate.pattern.stages, '/s')}`
            : `a ${rate.pattern.type} pattern`;
      const pool =
        executor.maxVus === executor.preAllocatedVus
          ? `${executor.maxVus} VUs`
          : `${executor.preAllocatedVus}–${executor.maxVus} VUs`;
      const past = executor.waitMs === 0 ? 'dropped' : 'late';
      const poisson = executor.arrivals === 'poisson' ? ', Poisson arrivals' : '';
      return `${schedule}${poisson}, ${pool} (${past} past them)`;
    }
  }
}

/** "→ 4 VUs over 1s, → 0 VUs over 500ms". */
function describeStages(stages: readonly StagePlan[], unit: string): string {
  return stages.map((s) => `→ ${s.target}${unit} over ${formatDuration(s.durationMs)}`).join(', ');
}

/** The flows or endpoints a scenario draws its iterations from. */
function describeRuns(plan: Plan, scenario: ScenarioPlan): string {
  const names = scenario.picks.items.map((item) =>
    item.kind === 'flow'
      ? `flow ${plan.graph.flows[item.index]!.name}`
      : plan.graph.endpoints[item.index]!.name,
  );
  return names.length === 0 ? 'the scenario file' : names.join(', ');
}

/** The run's virtual users at most, and its load in words, for headings. */
export function describeScenarioLoad(plan: Plan): { concurrency: number; load: string } {
  const concurrency = plan.scenarios.reduce((sum, s) => sum + maxVus(s.executor), 0);
  const names = plan.scenarios.map((s) => `${s.name} (${s.written})`);
  return { concurrency, load: `${names.length} scenarios: ${names.join(', ')}` };
}
