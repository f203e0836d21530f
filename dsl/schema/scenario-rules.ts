/**
 * Cross-field rules of `scenarios` (docs/configuration.md, Scenarios): the top-level load keys
 * belong in a scenario once there are scenarios; a scenario's flows and endpoints must name the
 * configuration's own; exec goes with a TypeScript file and flows/endpoints without one; max_vus
 * is at least pre_allocated_vus; a distributed run gives every scenario a VU in each segment.
 */
import { closest } from '../grammar/did-you-mean.js';
import type { Config } from './config-schema.js';
import type { ScenarioConfig } from './scenarios-schema.js';
import { endpointName, type Refinement } from './refinements.js';

/** The top-level keys a scenario's executor replaces, and what replaces them. */
const LOAD_KEYS = {
  concurrency: 'vus (or pre_allocated_vus and max_vus)',
  rate: 'rate with an arrival-rate executor',
  pattern: 'stages with ramping-arrival-rate',
  requests: 'iterations with a per-vu- or shared-iterations executor',
  duration: 'duration (or max_duration)',
} as const;

/** Every problem of the scenarios, at once. */
export function scenarioRules(config: Config): Refinement[] {
  const scenarios = config.scenarios;
  if (scenarios === undefined) return [];
  const out: Refinement[] = [];
  for (const [key, instead] of Object.entries(LOAD_KEYS))
    if (config[key as keyof typeof LOAD_KEYS] !== undefined)
      out.push({
        code: 'invalid_value',
        path: [key],
        expected: `no top-level ${key} beside scenarios: each scenario sets its own load (${instead})`,
        actual: `${key} with scenarios`,
      });
  const flows = (config.flows ?? []).map((f) => f.name);
  const endpoints = (config.endpoints ?? []).map(endpointName);
  for (const [name, scenario] of Object.entries(scenarios)) {
    const at = (...path: (string | number)[]) => ['scenarios', name, ...path];
    if (scenario.flows !== undefined && scenario.endpoints !== undefined)
      out.push({
        code: 'invalid_value',
        path: at('endpoints'),
        expected: 'flows or endpoints, not both',
        actual: 'both',
      });
    const script = config.scenario !== undefined;
    for (const key of ['flows', 'endpoints'] as const)
      if (script && scenario[key] !== undefined)
        out.push({
          code: 'invalid_value',
          path: at(key),
          expected: `exec (a function of the TypeScript scenario), not ${key}`,
          actual: `${key} with a scenario file`,
        });
    if (!script && scenario.exec !== undefined)
      out.push({
        code: 'invalid_value',
        path: at('exec'),
        expected: 'exec only with a TypeScript scenario file (scenario:)',
        actual: `exec "${scenario.exec}"`,
      });
    out.push(...unknownNames(scenario.flows, flows, 'flow', at('flows')));
    out.push(...unknownNames(scenario.endpoints, endpoints, 'endpoint', at('endpoints')));
    const segments = config.segment?.count ?? 1;
    const most = mostVus(scenario);
    if (most < segments)
      out.push({
        code: 'invalid_value',
        path: at('executor'),
        expected: `at least one virtual user per segment (${segments} segments)`,
        actual: `${most} at most`,
      });
    if ('max_vus' in scenario && scenario.max_vus !== undefined)
      if (scenario.max_vus < scenario.pre_allocated_vus)
        out.push({
          code: 'invalid_value',
          path: at('max_vus'),
          expected: `at least pre_allocated_vus (${scenario.pre_allocated_vus})`,
          actual: String(scenario.max_vus),
        });
  }
  return out;
}

/** The most virtual users a scenario may have. */
function mostVus(scenario: ScenarioConfig): number {
  switch (scenario.executor) {
    case 'ramping-vus':
      return Math.max(scenario.start_vus, ...scenario.stages.map((s) => Math.ceil(s.target)));
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return scenario.max_vus ?? scenario.pre_allocated_vus;
    default:
      return scenario.vus;
  }
}

/** Each of `given` that `known` lacks, with the closest known name. */
function unknownNames(
  given: readonly string[] | undefined,
  known: readonly string[],
  what: string,
  path: (string | number)[],
): Refinement[] {
  return (given ?? []).flatMap((name, i) => {
    if (known.includes(name)) return [];
    const guess = closest(name, known);
    return [
      {
        code: 'invalid_value' as const,
        path: [...path, i],
        expected:
          known.length === 0
            ? `a ${what} of the configuration (it has none)`
            : `one of the configuration's ${what}s: ${known.join(', ')}`,
        actual: `"${name}"`,
        ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
      },
    ];
  });
}
