/**
 * The scenarios of a run (model/plan/scenario-plan.ts): each `scenarios` entry with its executor
 * mapped onto the runtime's three kinds and its pick table over the flows or endpoints it names,
 * or the top-level form as the one scenario `default`.
 */
import type { Config } from '../schema/config-schema.js';
import type { ScenarioConfig } from '../schema/scenarios-schema.js';
import { endpointName } from '../schema/refinements.js';
import type { RatePlan } from '../../model/plan/rate-plan.js';
import type { PickItem, ScenarioGraph } from '../../model/plan/scenario-graph.js';
import {
  DEFAULT_SCENARIO,
  type ExecutorPlan,
  type ScenarioPlan,
} from '../../model/plan/scenario-plan.js';
import { pickTable } from './scenario-graph.js';

/** What the top-level form gives the `default` scenario. */
export interface DefaultLoad {
  readonly concurrency: number;
  readonly durationMs: number | undefined;
  readonly requests: number | undefined;
  readonly rate: RatePlan;
  readonly timeoutMs: number;
}

/** The run's scenarios. */
export function compileScenarios(
  config: Config,
  graph: ScenarioGraph,
  load: DefaultLoad,
): ScenarioPlan[] {
  if (config.scenarios === undefined) return [defaultScenario(graph, load)];
  return Object.entries(config.scenarios).map(([name, scenario]) => ({
    name,
    written: scenario.executor,
    executor: executorPlan(scenario),
    startMs: scenario.start_time,
    gracefulStopMs: scenario.graceful_stop,
    tags: scenario.tags,
    picks: picks(config, graph, scenario),
    exec: scenario.exec,
  }));
}

/** The top-level form: closed (a pool looping) or open (the rate, a fixed pool, late permits). */
function defaultScenario(graph: ScenarioGraph, load: DefaultLoad): ScenarioPlan {
  const executor: ExecutorPlan =
    load.rate.kind === 'unlimited'
      ? {
          kind: 'vus',
          vus: load.concurrency,
          durationMs: load.durationMs,
          iterations: load.requests,
          perVu: false,
        }
      : {
          kind: 'arrival-rate',
          rate: load.rate,
          durationMs: load.durationMs,
          iterations: load.requests,
          preAllocatedVus: load.concurrency,
          maxVus: load.concurrency,
          waitMs: load.timeoutMs,
          arrivals: 'even',
        };
  return {
    name: DEFAULT_SCENARIO,
    written: DEFAULT_SCENARIO,
    executor,
    startMs: 0,
    gracefulStopMs: load.timeoutMs,
    tags: {},
    picks: graph.picks,
    exec: undefined,
  };
}

function executorPlan(scenario: ScenarioConfig): ExecutorPlan {
  switch (scenario.executor) {
    case 'constant-vus':
      return {
        kind: 'vus',
        vus: scenario.vus,
        durationMs: scenario.duration,
        iterations: undefined,
        perVu: false,
      };
    case 'per-vu-iterations':
    case 'shared-iterations':
      return {
        kind: 'vus',
        vus: scenario.vus,
        durationMs: scenario.max_duration,
        iterations: scenario.iterations,
        perVu: scenario.executor === 'per-vu-iterations',
      };
    case 'ramping-vus':
      return {
        kind: 'ramping-vus',
        startVus: scenario.start_vus,
        stages: scenario.stages.map((s) => ({ durationMs: s.duration, target: s.target })),
        gracefulRampDownMs: scenario.graceful_ramp_down,
      };
    case 'constant-arrival-rate':
      return {
        kind: 'arrival-rate',
        rate: { kind: 'constant', rate: (scenario.rate * 1000) / scenario.time_unit },
        durationMs: scenario.duration,
        iterations: undefined,
        preAllocatedVus: scenario.pre_allocated_vus,
        maxVus: scenario.max_vus ?? scenario.pre_allocated_vus,
        waitMs: 0,
        arrivals: scenario.arrivals,
      };
    case 'ramping-arrival-rate': {
      const perSecond = 1000 / scenario.time_unit;
      return {
        kind: 'arrival-rate',
        rate: {
          kind: 'pattern',
          pattern: {
            type: 'stages',
            start: scenario.start_rate * perSecond,
            stages: scenario.stages.map((s) => ({
              durationMs: s.duration,
              target: s.target * perSecond,
            })),
          },
        },
        durationMs: undefined,
        iterations: undefined,
        preAllocatedVus: scenario.pre_allocated_vus,
        maxVus: scenario.max_vus ?? scenario.pre_allocated_vus,
        waitMs: 0,
        arrivals: scenario.arrivals,
      };
    }
  }
}

/** The scenario's pick table: the flows or endpoints it names, by their weights; else the run's. */
function picks(config: Config, graph: ScenarioGraph, scenario: ScenarioConfig) {
  const items: { item: PickItem; weight: number }[] = [];
  if (scenario.flows !== undefined)
    for (const name of scenario.flows) {
      const index = graph.flows.findIndex((f) => f.name === name);
      if (index >= 0)
        items.push({ item: { kind: 'flow', index }, weight: graph.flows[index]!.weight });
    }
  else if (scenario.endpoints !== undefined)
    for (const name of scenario.endpoints) {
      const index = (config.endpoints ?? []).findIndex((e) => endpointName(e) === name);
      if (index >= 0)
        items.push({ item: { kind: 'endpoint', index }, weight: graph.endpoints[index]!.weight });
    }
  return items.length > 0 ? pickTable(items) : graph.picks;
}
