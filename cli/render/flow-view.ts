/**
 * A flow as `validate` shows it: one line of its steps joined by arrows, or, with loops and ifs,
 * a tree, one step a line, each loop with its kind and bound and each branch with its condition.
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { Condition, FlowPlan, FlowStep } from '../../model/plan/scenario-graph.js';
import { showStatusSet } from '../../model/plan/status-set.js';
import { showTemplate } from './plan-view.js';

/** The flow's lines, after its heading `head`. */
export function describeFlow(
  flow: FlowPlan,
  head: string,
  endpoints: readonly EndpointPlan[],
): string[] {
  const name = (index: number): string => endpoints[index]?.name ?? '?';
  if (flow.steps.every((s) => typeof s === 'number'))
    return [`${head}  ${flow.steps.map((s) => name(s)).join(' → ')}`];
  const lines = [head];
  const walk = (steps: readonly FlowStep[], indent: string): void => {
    for (const step of steps) {
      if (typeof step === 'number') lines.push(`${indent}${name(step)}`);
      else if (step.kind === 'loop') {
        lines.push(`${indent}loop ${describeLoop(step)}`);
        walk(step.steps, `${indent}  `);
      } else {
        lines.push(`${indent}if ${describeCondition(step.condition)}`);
        walk(step.then, `${indent}  `);
        if (step.else.length > 0) {
          lines.push(`${indent}else`);
          walk(step.else, `${indent}  `);
        }
      }
    }
  };
  walk(flow.steps, '    ');
  return lines;
}

function describeLoop(loop: Extract<FlowStep, { kind: 'loop' }>): string {
  const bound = `at most ${loop.max} passes`;
  if (loop.count !== undefined) return `${loop.count} times`;
  if (loop.over !== undefined) return `over {{${loop.over}}} as ${loop.as}, ${bound}`;
  return `while ${describeCondition(loop.while!)}, ${bound}`;
}

/** A condition as written, compactly. */
export function describeCondition(c: Condition): string {
  if ('all' in c) return `all(${c.all.map(describeCondition).join(', ')})`;
  if ('any' in c) return `any(${c.any.map(describeCondition).join(', ')})`;
  if ('not' in c) return `not(${describeCondition(c.not)})`;
  if ('status' in c) return `status ${showStatusSet(c.status)}`;
  const subject = 'json' in c ? `json ${c.json}` : c.var;
  if (c.op === 'exists') return `${subject} ${c.exists ? 'exists' : 'missing'}`;
  if (c.op === 'matches') return `${subject} matches /${c.pattern}/`;
  return `${subject} ${c.op === 'equals' ? '=' : '≠'} "${showTemplate(c.value)}"`;
}
