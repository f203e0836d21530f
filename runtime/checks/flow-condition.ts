/**
 * A flow's conditions (`if`, `loop: while`; docs/configuration.md, Loops and conditions) judged
 * against a virtual user's variables and the flow's last response. Each is compiled once (a
 * WeakMap keyed by the plan's condition object) into a predicate. A compared value is a template
 * the variables fill; one that cannot be filled (a variable with no value) compares false, as a
 * missing variable is neither equal nor unequal to anything.
 */
import type { Condition } from '../../model/plan/scenario-graph.js';
import { inStatusSet } from '../../model/plan/status-set.js';
import type { Random } from '../../model/random.js';
import { firstJsonValue, jsonText, type ParsedBody } from '../vars/extract.js';
import { compileTemplate, render } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** What a condition reads. */
export interface ConditionContext {
  readonly vars: VariableStore;
  readonly random: Random;
  /** The flow's last response's status; 0 when there was none (yet, or a network error). */
  readonly status: number;
  /** The flow's last response's body, parsed on first use; undefined when there was none. */
  body(): ParsedBody | undefined;
}

type Predicate = (context: ConditionContext) => boolean;

const compiled = new WeakMap<Condition, Predicate>();

/** True when the condition holds. */
export function holds(condition: Condition, context: ConditionContext): boolean {
  let predicate = compiled.get(condition);
  if (predicate === undefined) {
    predicate = compile(condition);
    compiled.set(condition, predicate);
  }
  return predicate(context);
}

function compile(c: Condition): Predicate {
  if ('all' in c) {
    const parts = c.all.map(compile);
    return (x) => parts.every((p) => p(x));
  }
  if ('any' in c) {
    const parts = c.any.map(compile);
    return (x) => parts.some((p) => p(x));
  }
  if ('not' in c) {
    const inner = compile(c.not);
    return (x) => !inner(x);
  }
  if ('status' in c) {
    const set = c.status;
    return (x) => x.status > 0 && inStatusSet(set, x.status);
  }
  if ('json' in c) {
    const read = (x: ConditionContext): string | undefined => {
      const json = x.body()?.json;
      return json === undefined ? undefined : jsonText(firstJsonValue(json, c.evaluatorPath));
    };
    if (c.op === 'exists') return (x) => (read(x) !== undefined) === c.exists;
    return comparison(read, c.op, c.value);
  }
  const name = c.var;
  const read = (x: ConditionContext): string | undefined => x.vars.get(name);
  switch (c.op) {
    case 'exists':
      return (x) => (read(x) !== undefined) === c.exists;
    case 'matches': {
      const pattern = new RegExp(c.pattern);
      return (x) => {
        const value = read(x);
        return value !== undefined && pattern.test(value);
      };
    }
    default:
      return comparison(read, c.op, c.value);
  }
}

/** equals / not_equals between a value read and a template rendered; false when either is missing. */
function comparison(
  read: (x: ConditionContext) => string | undefined,
  op: 'equals' | 'not_equals',
  value: Parameters<typeof compileTemplate>[0],
): Predicate {
  const template = compileTemplate(value);
  return (x) => {
    const actual = read(x);
    const expected = render(template, x.vars, x.random);
    if (actual === undefined || expected === undefined) return false;
    return (actual === expected) === (op === 'equals');
  };
}
