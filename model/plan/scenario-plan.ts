/**
 * The scenarios of a run (docs/configuration.md, Scenarios): each a named load with its own
 * executor, the iterations it draws (its pick table over the graph's flows or endpoints), its start
 * and its tags. The top-level form (`concurrency`, `rate`, `pattern`, `requests`, `duration`) is one
 * scenario named `default`.
 *
 * Executors, as the runtime runs them (k6's names map onto three kinds):
 *   vus           a fixed pool looping iterations: constant-vus (a duration), shared-iterations
 *                 (a total, shared), per-vu-iterations (a count per VU, `perVu`)
 *   ramping-vus   a pool whose active size follows stages of targets, linearly
 *   arrival-rate  iterations started on a schedule (a constant rate or a pattern), by a pool of
 *                 preAllocatedVus that grows up to maxVus when no VU is free; an iteration that
 *                 still finds none waits `waitMs` (0: dropped at once, as in k6; the top-level form
 *                 waits up to the request timeout, counted late, as barrage always has)
 */
import type { PickTable } from './scenario-graph.js';
import type { RatePlan } from './rate-plan.js';

/**
 * How long past a graceful stop (a scenario's `graceful_stop`, the run's `timeout`) what is under
 * way may still end by itself, so that a request's own deadline fires first and counts as its
 * timeout rather than as a cut.
 */
export const GRACE_MARGIN_MS = 1000;

/** A stage of a ramping executor: the target reached, linearly, at the stage's end. */
export interface StagePlan {
  readonly durationMs: number;
  readonly target: number;
}

/** How a scenario starts its iterations. */
export type ExecutorPlan =
  | {
      readonly kind: 'vus';
      readonly vus: number;
      readonly durationMs: number | undefined;
      readonly iterations: number | undefined;
      readonly perVu: boolean;
    }
  | {
      readonly kind: 'ramping-vus';
      readonly startVus: number;
      readonly stages: readonly StagePlan[];
      readonly gracefulRampDownMs: number;
    }
  | {
      readonly kind: 'arrival-rate';
      /** Iterations per second: constant, or a pattern (ramping-arrival-rate's stages are one). */
      readonly rate: Exclude<RatePlan, { kind: 'unlimited' }>;
      readonly durationMs: number | undefined;
      readonly iterations: number | undefined;
      readonly preAllocatedVus: number;
      readonly maxVus: number;
      readonly waitMs: number;
      /** Evenly spaced, or a seeded Poisson process. */
      readonly arrivals: 'even' | 'poisson';
    };

/** The name of the one scenario of a run written in the top-level form. */
export const DEFAULT_SCENARIO = 'default';

/** One scenario. */
export interface ScenarioPlan {
  readonly name: string;
  /** The k6 executor it was written as (shown), or `default` for the top-level form. */
  readonly written: string;
  readonly executor: ExecutorPlan;
  readonly startMs: number;
  /** How long iterations under way at its end may go on before they are cut. */
  readonly gracefulStopMs: number;
  readonly tags: Readonly<Record<string, string>>;
  readonly picks: PickTable;
  /** The TypeScript scenario's exported function it runs (default: the default export). */
  readonly exec: string | undefined;
}

/**
 * The load of a run written in the top-level form (`concurrency`, `rate` or `pattern`, `requests`,
 * `duration`), read back from its one scenario's executor: the words headings, `validate` and the
 * dashboard use for it. The plan keeps no second copy of these.
 */
export interface TopLevelLoad {
  /** `concurrency`: the pool that loops (closed model) or takes the permits (open model). */
  readonly workers: number;
  readonly rate: RatePlan;
  readonly durationMs: number | undefined;
  readonly iterations: number | undefined;
}

/** The top-level load of `scenarios` when they are the top-level form's one scenario. */
export function topLevelLoad(
  scenarios: readonly ScenarioPlan[],
  named: boolean,
): TopLevelLoad | undefined {
  const executor = scenarios[0]?.executor;
  if (named || scenarios.length !== 1 || executor === undefined) return undefined;
  switch (executor.kind) {
    case 'vus':
      return {
        workers: executor.vus,
        rate: { kind: 'unlimited' },
        durationMs: executor.durationMs,
        iterations: executor.iterations,
      };
    case 'arrival-rate':
      return {
        workers: executor.preAllocatedVus,
        rate: executor.rate,
        durationMs: executor.durationMs,
        iterations: executor.iterations,
      };
    case 'ramping-vus':
      return undefined;
  }
}

/** The most virtual users a scenario may have at once. */
export function maxVus(executor: ExecutorPlan): number {
  switch (executor.kind) {
    case 'vus':
      return executor.vus;
    case 'ramping-vus':
      return Math.max(executor.startVus, ...executor.stages.map((s) => Math.ceil(s.target)));
    case 'arrival-rate':
      return executor.maxVus;
  }
}

/**
 * When a named scenario's dispatch ends, ms from the start of the run; undefined when only a count
 * bounds it (shared- or per-vu-iterations still have max_duration, so that is their bound).
 */
export function scenarioEndMs(scenario: ScenarioPlan): number | undefined {
  const executor = scenario.executor;
  const stages = (list: readonly StagePlan[]): number =>
    list.reduce((sum, stage) => sum + stage.durationMs, 0);
  let lengthMs: number | undefined;
  if (executor.kind === 'ramping-vus') lengthMs = stages(executor.stages);
  else if (executor.kind === 'vus') lengthMs = executor.durationMs;
  else if (executor.durationMs !== undefined) lengthMs = executor.durationMs;
  else if (executor.rate.kind === 'pattern' && executor.rate.pattern.type === 'stages')
    lengthMs = stages(executor.rate.pattern.stages);
  return lengthMs === undefined ? undefined : scenario.startMs + lengthMs;
}
