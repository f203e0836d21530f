/**
 * The scenarios of a plan as `validate` shows them: each one's executor as written, when it
 * starts, its load over time in words (VUs or rate, stages, limits) and drawn over the run, what
 * it runs, and the sums of its VU and arrival-rate scenarios.
 */
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { Plan } from '../../model/plan/plan.js';
import type { RatePlan } from '../../model/plan/rate-plan.js';
import {
  maxVus,
  scenarioEndMs,
  topLevelLoad,
  type ExecutorPlan,
  type ScenarioPlan,
  type StagePlan,
} from '../../model/plan/scenario-plan.js';
import { patternPeak, rateAt } from '../../runtime/schedule/rate-function.js';
import { renderChart } from './rate-chart.js';

/**
 * Lines of the plan view for named scenarios (indented under `scenarios`): each one in words and,
 * when the run has a known end, drawn over the whole run (its VUs, or its rate), then the sums
 * of the VU scenarios and of the arrival rates when there are two or more of a kind.
 */
export function renderScenarios(plan: Plan): string[] {
  const width = Math.max(...plan.scenarios.map((s) => s.name.length));
  const ends = plan.scenarios.map(scenarioEndMs);
  const runMs = ends.every((end) => end !== undefined) ? Math.max(...ends) : undefined;
  const lines = ['  scenarios'];
  for (const scenario of plan.scenarios) {
    lines.push(
      `    ${scenario.name.padEnd(width)}  ${scenario.written}, from ${formatDuration(scenario.startMs)}: ${describeLoad(scenario.executor)}; runs ${describeRuns(plan, scenario)}`,
    );
    if (runMs !== undefined) lines.push(...indent(chartOf([scenario], runMs)));
  }
  if (runMs !== undefined)
    for (const kind of ['vus', 'rate'] as const) {
      const group = plan.scenarios.filter((s) => unitOf(s) === kind);
      if (group.length < 2) continue;
      lines.push(`    all ${kind === 'vus' ? 'virtual users' : 'arrival rates'}`);
      lines.push(...indent(chartOf(group, runMs)));
    }
  return lines;
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => `      ${line}`);
}

/** What a scenario's chart draws: its virtual users, or its arrival rate. */
function unitOf(scenario: ScenarioPlan): 'vus' | 'rate' {
  return scenario.executor.kind === 'arrival-rate' ? 'rate' : 'vus';
}

/** The summed load of scenarios of one kind over the run, as a chart. */
function chartOf(scenarios: readonly ScenarioPlan[], runMs: number): string[] {
  const at = (ms: number): number => scenarios.reduce((sum, s) => sum + loadAt(s, ms), 0);
  const unit = unitOf(scenarios[0]!) === 'vus' ? ' VUs' : '/s';
  // One scenario's peak is exact; a sum's is the highest of fine samples (its peaks may not meet).
  const peak =
    scenarios.length === 1
      ? peakOf(scenarios[0]!.executor)
      : Math.max(...Array.from({ length: 240 }, (_, i) => at(((i + 0.5) * runMs) / 240)));
  return renderChart(at, runMs, peak, unit);
}

/** The most VUs, or the highest rate, of an executor. */
function peakOf(executor: ExecutorPlan): number {
  if (executor.kind !== 'arrival-rate') return maxVus(executor);
  return executor.rate.kind === 'constant'
    ? executor.rate.rate
    : patternPeak(executor.rate.pattern);
}

/** A scenario's VUs (or rate) at `ms` from the start of the run; 0 outside its span. */
function loadAt(scenario: ScenarioPlan, ms: number): number {
  const t = ms - scenario.startMs;
  const end = scenarioEndMs(scenario);
  if (t < 0 || (end !== undefined && ms >= end)) return 0;
  const executor = scenario.executor;
  switch (executor.kind) {
    case 'vus':
      return executor.vus;
    case 'ramping-vus':
      return rateAt({ type: 'stages', start: executor.startVus, stages: executor.stages }, t);
    case 'arrival-rate':
      return executor.rate.kind === 'constant'
        ? executor.rate.rate
        : rateAt(executor.rate.pattern, t);
  }
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

/** The load model in words: closed model, a rate, or a pattern. */
export function describeRate(rate: RatePlan): string {
  switch (rate.kind) {
    case 'unlimited':
      return 'as fast as the workers go (closed model)';
    case 'constant':
      return `${rate.rate}/s (open model)`;
    case 'pattern':
      return `${rate.pattern.type} pattern`;
  }
}

/**
 * The run's virtual users at most, and its load in words, for headings: the top-level form's
 * workers and rate (`10/s (open model)`), or each named scenario and its executor.
 */
export function describeRunLoad(plan: Plan): { concurrency: number; load: string } {
  const top = topLevelLoad(plan.scenarios, plan.namedScenarios);
  if (top !== undefined) return { concurrency: top.workers, load: describeRate(top.rate) };
  const concurrency = plan.scenarios.reduce((sum, s) => sum + maxVus(s.executor), 0);
  const names = plan.scenarios.map((s) => `${s.name} (${s.written})`);
  return { concurrency, load: `${names.length} scenarios: ${names.join(', ')}` };
}
