/**
 * The rules of flows that their schema cannot see (docs/configuration.md, Loops and conditions):
 * unique names; steps naming endpoints; a loop of one kind (count, over or while) within its bound
 * (`max`, default 1000, at most LOOP_LIMIT; `while` needs one written); `as` only with `over`; a
 * condition with one subject and the predicate it takes; nesting at most MAX_FLOW_DEPTH deep;
 * `reauth` naming another HTTP endpoint.
 */
import { closest } from '../grammar/did-you-mean.js';
import type { Config } from './config-schema.js';
import type { ConditionConfig, LoopConfig, StepConfig } from './flow-schema.js';
import { isWebSocketEndpoint } from './endpoint-kind.js';
import type { Refinement } from './refinements.js';

/** Passes a loop makes when its `max` is not written. */
export const DEFAULT_LOOP_MAX = 1000;
/** The most passes a loop may be allowed. */
export const LOOP_LIMIT = 100_000;
/** How deep loops and ifs may nest. */
export const MAX_FLOW_DEPTH = 8;

type Path = readonly (string | number)[];

/** Every flow rule, given the endpoints' names. */
export function flowRules(config: Config, names: readonly string[]): Refinement[] {
  const out: Refinement[] = [];
  const seen = new Set<string>();
  (config.flows ?? []).forEach((flow, i) => {
    if (seen.has(flow.name))
      out.push({
        code: 'invalid_value',
        path: ['flows', i, 'name'],
        expected: 'a name no other flow has',
        actual: `"${flow.name}"`,
      });
    seen.add(flow.name);
    stepRules(flow.steps, ['flows', i, 'steps'], 1, names, out);
  });
  return out;
}

function stepRules(
  steps: readonly StepConfig[],
  path: Path,
  depth: number,
  names: readonly string[],
  out: Refinement[],
): void {
  steps.forEach((step, j) => {
    const at = [...path, j];
    if (typeof step === 'string') {
      if (!names.includes(step)) out.push(unknownEndpoint(step, at, names));
      return;
    }
    if (depth > MAX_FLOW_DEPTH) {
      out.push({
        code: 'invalid_value',
        path: at,
        expected: `loops and ifs nested at most ${MAX_FLOW_DEPTH} deep`,
        actual: `one at depth ${depth}`,
      });
      return;
    }
    if ('loop' in step) {
      loopRules(step.loop, [...at, 'loop'], out);
      stepRules(step.loop.steps, [...at, 'loop', 'steps'], depth + 1, names, out);
      return;
    }
    conditionRules(step.if, [...at, 'if'], out);
    stepRules(step.steps, [...at, 'steps'], depth + 1, names, out);
    stepRules(step.else ?? [], [...at, 'else'], depth + 1, names, out);
  });
}

/** One kind of loop, bounded. */
function loopRules(loop: LoopConfig, path: Path, out: Refinement[]): void {
  const kinds = (['count', 'over', 'while'] as const).filter((k) => loop[k] !== undefined);
  if (kinds.length !== 1) {
    out.push({
      code: kinds.length === 0 ? 'missing_value' : 'invalid_value',
      path,
      expected:
        'one of count (passes), over (a variable holding a JSON list) or while (a condition)',
      actual: kinds.length === 0 ? 'none of them' : kinds.join(' and '),
    });
    return;
  }
  if (loop.as !== undefined && loop.over === undefined)
    out.push({
      code: 'invalid_value',
      path: [...path, 'as'],
      expected: 'as only with over (the variable each item of the list is stored in)',
      actual: `as: ${loop.as} with ${kinds[0]}`,
    });
  if (loop.while !== undefined) {
    conditionRules(loop.while, [...path, 'while'], out);
    if (loop.max === undefined)
      out.push({
        code: 'missing_value',
        path: [...path, 'max'],
        expected: `a bound on a while loop: max, the most passes it may make (at most ${LOOP_LIMIT})`,
        actual: 'nothing (a while loop without a bound could run for ever)',
      });
  }
  const max = loop.max ?? DEFAULT_LOOP_MAX;
  if (loop.max !== undefined && loop.max > LOOP_LIMIT)
    out.push({
      code: 'invalid_value',
      path: [...path, 'max'],
      expected: `a loop bound of at most ${LOOP_LIMIT} passes`,
      actual: String(loop.max),
    });
  else if (loop.count !== undefined && loop.count > max)
    out.push({
      code: 'invalid_value',
      path: [...path, 'count'],
      expected: `a count within the loop's bound, max ${max}${loop.max === undefined ? ' (the default; write max to raise it, at most ' + LOOP_LIMIT + ')' : ''}`,
      actual: String(loop.count),
    });
}

const SUBJECTS = ['var', 'status', 'json', 'all', 'any', 'not'] as const;
const PREDICATES = ['equals', 'not_equals', 'matches', 'exists'] as const;
/** The predicates each subject takes (none: the subject is its own predicate). */
const TAKES: Readonly<Record<(typeof SUBJECTS)[number], readonly string[]>> = {
  var: PREDICATES,
  json: ['equals', 'not_equals', 'exists'],
  status: [],
  all: [],
  any: [],
  not: [],
};

/** One subject, and one predicate it takes (or none, for those that need none). */
export function conditionRules(condition: ConditionConfig, path: Path, out: Refinement[]): void {
  const subjects = SUBJECTS.filter((k) => condition[k] !== undefined);
  const predicates = PREDICATES.filter((k) => condition[k] !== undefined);
  const subject = subjects[0];
  if (subject === undefined || subjects.length > 1) {
    out.push({
      code: subject === undefined ? 'missing_value' : 'invalid_value',
      path,
      expected: `one subject: ${SUBJECTS.join(', ')}`,
      actual: subject === undefined ? 'none' : subjects.join(' and '),
    });
    return;
  }
  const takes = TAKES[subject];
  const wrong = predicates.find((p) => !takes.includes(p));
  if (wrong !== undefined)
    out.push({
      code: 'invalid_value',
      path: [...path, wrong],
      expected: takes.length === 0 ? `nothing beside ${subject}` : `one of ${takes.join(', ')}`,
      actual: `${wrong} with ${subject}`,
    });
  else if (takes.length > 0 && predicates.length !== 1)
    out.push({
      code: predicates.length === 0 ? 'missing_value' : 'invalid_value',
      path,
      expected: `one predicate for ${subject}: ${takes.join(', ')}`,
      actual: predicates.length === 0 ? 'none' : predicates.join(' and '),
    });
  condition.all?.forEach((c, i) => conditionRules(c, [...path, 'all', i], out));
  condition.any?.forEach((c, i) => conditionRules(c, [...path, 'any', i], out));
  if (condition.not !== undefined) conditionRules(condition.not, [...path, 'not'], out);
}

/** `reauth: { run }` names another endpoint, an HTTP one. */
export function reauthRules(config: Config, names: readonly string[]): Refinement[] {
  const out: Refinement[] = [];
  (config.endpoints ?? []).forEach((endpoint, i) => {
    const run = endpoint.reauth?.run;
    if (run === undefined) return;
    const path = ['endpoints', i, 'reauth', 'run'];
    const target = names.indexOf(run);
    if (target < 0) out.push(unknownEndpoint(run, path, names));
    else if (target === i)
      out.push({
        code: 'invalid_value',
        path,
        expected: 'another endpoint (the one that gets new credentials)',
        actual: `"${run}", this endpoint itself`,
      });
    else if (isWebSocketEndpoint(config.endpoints![target]!.url, config.target))
      out.push({
        code: 'invalid_value',
        path,
        expected: 'an HTTP endpoint',
        actual: `"${run}", a WebSocket endpoint`,
      });
  });
  return out;
}

function unknownEndpoint(name: string, path: Path, names: readonly string[]): Refinement {
  const guess = closest(name, [...names]);
  return {
    code: 'unknown_endpoint',
    path,
    expected: `an endpoint name: ${names.join(', ')}`,
    actual: `"${name}"`,
    ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
  };
}
