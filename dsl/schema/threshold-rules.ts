/**
 * What a threshold's tags may name in this configuration (the grammar only knows the metric):
 * a user tag key some `tags:` declares, and values that can occur: an endpoint, a check or a
 * scenario it has, a method its endpoints use, a status code, an error kind, true or false for
 * expected_response, a value its `tags:` give. Each would otherwise fail with no data after the
 * whole run. A TypeScript scenario's names and call tags are known only as it runs: there, only
 * what cannot occur anywhere (status, expected_response, error_kind, scenario) is checked.
 */
import { closest } from '../grammar/did-you-mean.js';
import { ERROR_KINDS } from '../../model/errors/error-kinds.js';
import {
  BUILTIN_METRICS,
  CUSTOM_TAGS,
  isBuiltinMetric,
  isBuiltinTag,
} from '../../model/metrics/metric-registry.js';
import { DEFAULT_SCENARIO } from '../../model/plan/scenario-plan.js';
import type { Config } from './config-schema.js';
import { configuredThresholds } from './configured-thresholds.js';
import { endpointName, type Refinement } from './refinements.js';

/** Every threshold parsed with the declared metrics, and its tags checked against the configuration. */
export function thresholdRules(config: Config): Refinement[] {
  const known = knownValues(config);
  const scripted = config.scenario !== undefined;
  const out: Refinement[] = [];
  configuredThresholds(config).forEach((parsed, i) => {
    if (!parsed.ok) {
      out.push({
        code: 'invalid_threshold',
        path: config.thresholds[i]!.mapping ? ['thresholds', i, 'threshold'] : ['thresholds', i],
        expected: `a threshold <metric>[{tag=value}]:<aggregate> <op> <number or baseline> on a built-in or declared metric`,
        actual: JSON.stringify(config.thresholds[i]!.expression),
        hint: parsed.error.message,
      });
      return;
    }
    const threshold = parsed.value;
    if (threshold.relative !== undefined && config.baseline === undefined)
      out.push({
        code: 'invalid_threshold',
        path: config.thresholds[i]!.mapping ? ['thresholds', i, 'threshold'] : ['thresholds', i],
        expected:
          "a baseline to read it from: --baseline FILE or baseline: (an earlier run's --json or --raw result)",
        actual: `${JSON.stringify(threshold.expression)} without a baseline`,
      });
    for (const [key, value] of Object.entries(threshold.tags)) {
      // A scenario's calls may tag with any key of the user's own.
      if (scripted && !isBuiltinTag(key)) continue;
      const problem = tagProblem(threshold.metric, key, value, known);
      if (problem !== undefined) out.push({ ...problem, path: ['thresholds', i] });
    }
  });
  return out;
}

/** The values each tag can take in this configuration; undefined where it cannot be known. */
type Known = ReadonlyMap<string, readonly string[] | undefined>;

/**
 * The endpoint names of a configuration: its endpoints', or the single-request form's one
 * (`GET <target>`, as scenario-graph.ts names it); undefined when there is no target to name it.
 */
function endpointNames(config: Config): readonly string[] | undefined {
  if (config.endpoints !== undefined) return config.endpoints.map(endpointName);
  if (config.target === undefined) return undefined;
  return [`${config.method} ${config.target}`];
}

function knownValues(config: Config): Known {
  const scripted = config.scenario !== undefined;
  const endpoints = config.endpoints ?? [];
  const scenarios = Object.keys(config.scenarios ?? {});
  const known = new Map<string, readonly string[] | undefined>([
    ['status', undefined],
    ['expected_response', ['true', 'false']],
    ['error_kind', ERROR_KINDS],
    ['scenario', scenarios.length === 0 ? [DEFAULT_SCENARIO] : scenarios],
    ['endpoint', scripted ? undefined : endpointNames(config)],
    // A gRPC endpoint's method tag is its full method name (docs/grpc.md).
    [
      'method',
      scripted ? undefined : [...new Set(endpoints.map((e) => e.grpc?.method ?? e.method))],
    ],
    ['check', [...new Set(endpoints.flatMap((e) => (e.checks ?? []).map((c) => c.name)))]],
    ['group', undefined],
  ]);
  if (scripted) known.set('check', undefined);
  const declared = [
    config.tags,
    ...Object.values(config.scenarios ?? {}).map((s) => s.tags),
    ...endpoints.map((e) => e.tags),
  ];
  for (const tags of declared)
    for (const [key, value] of Object.entries(tags)) {
      const values = known.get(key) ?? [];
      if (!values.includes(value)) known.set(key, [...values, value]);
    }
  return known;
}

/** Why `key=value` cannot select a sample of `metric` here; undefined when it can. */
function tagProblem(
  metric: string,
  key: string,
  value: string,
  known: Known,
): Omit<Refinement, 'path'> | undefined {
  if (key === 'status' && !/^\d{1,3}$/.test(value))
    return {
      code: 'invalid_value',
      expected: 'a status code, such as status=200',
      actual: `status=${value}`,
    };
  if (!known.has(key)) {
    const own = isBuiltinMetric(metric) ? BUILTIN_METRICS[metric].tags : CUSTOM_TAGS;
    const keys = [...own, ...[...known.keys()].filter((k) => !isBuiltinTag(k))];
    const guess = closest(key, keys);
    return {
      code: 'unknown_tag',
      expected: `a tag of ${metric} samples: ${keys.join(', ')} (your own tags are declared with tags:)`,
      actual: `"${key}"`,
      ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
    };
  }
  const values = known.get(key);
  if (values === undefined || values.includes(value)) return undefined;
  const guess = closest(value, values);
  const what = WHAT[key] ?? `a value of the tag ${key}`;
  return {
    code:
      key === 'endpoint' ? 'unknown_endpoint' : key === 'check' ? 'unknown_check' : 'unknown_tag',
    expected:
      values.length === 0 ? `${what}, but none is defined` : `${what}: ${values.join(', ')}`,
    actual: `"${value}"`,
    ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
  };
}

/** How the expected value of a tag reads. */
const WHAT: Readonly<Record<string, string>> = {
  endpoint: 'an endpoint name',
  check: "the name of an endpoint's check",
  scenario: 'a scenario name',
  method: 'a method of an endpoint',
  expected_response: 'true or false',
  error_kind: 'an error kind',
};
