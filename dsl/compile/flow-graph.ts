/**
 * Flows as the runtime walks them (model/plan/scenario-graph.ts): endpoint names → indexes, loops
 * with their bound (DEFAULT_LOOP_MAX unless `max` is written), branches, and conditions with their
 * compared values as templates the virtual user's variables fill.
 */
import { evaluatorJsonPath } from '../grammar/json-path.js';
import type { Config } from '../schema/config-schema.js';
import { DEFAULT_LOOP_MAX } from '../schema/flow-rules.js';
import type { ConditionConfig, StepConfig } from '../schema/flow-schema.js';
import type { Condition, FlowPlan, FlowStep } from '../../model/plan/scenario-graph.js';
import type { Template } from '../../model/plan/template.js';
import { resolveTemplate, type EnvResolver } from './resolve-template.js';

type Path = readonly (string | number)[];

/** Compiles the configuration's flows, given each endpoint's index by name. */
export function compileFlows(
  config: Config,
  nameToIndex: ReadonlyMap<string, number>,
  env: EnvResolver,
): FlowPlan[] {
  return (config.flows ?? []).map((flow, i) => {
    const compiler = new FlowCompiler(nameToIndex, env);
    const steps = compiler.steps(flow.steps, ['flows', i, 'steps']);
    return {
      name: flow.name,
      weight: flow.weight,
      steps,
      readsBody: compiler.readsBody,
      think: flow.think,
    };
  });
}

/** One flow's compiler: notes whether a condition reads the last response's body. */
class FlowCompiler {
  readsBody = false;

  constructor(
    private readonly nameToIndex: ReadonlyMap<string, number>,
    private readonly env: EnvResolver,
  ) {}

  steps(steps: readonly StepConfig[], path: Path): FlowStep[] {
    return steps.map((step, j) => this.#step(step, [...path, j]));
  }

  #step(step: StepConfig, path: Path): FlowStep {
    if (typeof step === 'string') return this.nameToIndex.get(step) ?? -1;
    if ('loop' in step) {
      const loop = step.loop;
      const at = [...path, 'loop'];
      return {
        kind: 'loop',
        count: loop.count,
        over: loop.over,
        as: loop.over === undefined ? undefined : (loop.as ?? 'item'),
        while: loop.while === undefined ? undefined : this.condition(loop.while, [...at, 'while']),
        max: loop.max ?? DEFAULT_LOOP_MAX,
        steps: this.steps(loop.steps, [...at, 'steps']),
      };
    }
    return {
      kind: 'if',
      condition: this.condition(step.if, [...path, 'if']),
      then: this.steps(step.steps, [...path, 'steps']),
      else: this.steps(step.else ?? [], [...path, 'else']),
    };
  }

  condition(c: ConditionConfig, path: Path): Condition {
    if (c.all !== undefined) return { all: c.all.map((x, i) => this.condition(x, [...path, i])) };
    if (c.any !== undefined) return { any: c.any.map((x, i) => this.condition(x, [...path, i])) };
    if (c.not !== undefined) return { not: this.condition(c.not, [...path, 'not']) };
    if (c.status !== undefined) return { status: c.status };
    if (c.json !== undefined) {
      this.readsBody = true;
      const subject = { json: c.json, evaluatorPath: evaluatorJsonPath(c.json) };
      if (c.exists !== undefined) return { ...subject, op: 'exists', exists: c.exists };
      const op = c.equals !== undefined ? 'equals' : 'not_equals';
      return { ...subject, op, value: this.#value(c[op]!, [...path, op]) };
    }
    const name = c.var!;
    if (c.exists !== undefined) return { var: name, op: 'exists', exists: c.exists };
    if (c.matches !== undefined) return { var: name, op: 'matches', pattern: c.matches };
    const op = c.equals !== undefined ? 'equals' : 'not_equals';
    return { var: name, op, value: this.#value(c[op]!, [...path, op]) };
  }

  #value(value: string | number | boolean, path: Path): Template {
    return typeof value === 'string' ? resolveTemplate(value, path, this.env) : [String(value)];
  }
}
