/**
 * Static checks of a compiled Plan: placeholders that no extractor, feeder field or built-in can
 * ever fill are refused (their requests could never be sent). A TypeScript scenario can set any
 * variable (vars.set), so the auth placeholders of a run with one are not checked.
 */
import { basename } from 'node:path';
import { closest } from '../grammar/did-you-mean.js';
import type { Refinement } from '../schema/refinements.js';
import type { Plan } from '../../model/plan/plan.js';
import type { Condition, FlowStep } from '../../model/plan/scenario-graph.js';
import type { Template } from '../../model/plan/template.js';
import { templateVariables } from '../../model/plan/template.js';

/** Where a variable can come from: endpoint names (extractors) and "feeder". */
export function variableProviders(plan: Plan): Map<string, string[]> {
  const providers = new Map<string, string[]>();
  const add = (variable: string, source: string): void => {
    const list = providers.get(variable) ?? [];
    if (!list.includes(source)) list.push(source);
    providers.set(variable, list);
  };
  for (const field of plan.feeder?.records.fields ?? []) add(field, 'feeder');
  for (const flow of plan.graph.flows)
    for (const variable of loopVariables(flow.steps)) add(variable, `flow ${flow.name}`);
  for (const endpoint of plan.graph.endpoints) {
    for (const extractor of endpoint.extract) add(extractor.variable, endpoint.name);
    for (const step of endpoint.ws?.steps ?? [])
      if (step.kind === 'send' || step.kind === 'receive')
        for (const extractor of step.extract) add(extractor.variable, endpoint.name);
    for (const step of endpoint.socketio?.steps ?? [])
      if (step.kind === 'emit' || step.kind === 'receive')
        for (const extractor of step.extract) add(extractor.variable, endpoint.name);
  }
  return providers;
}

/** The variables the compared values of a flow's conditions read (`equals: '{{email}}'`). */
function conditionNeeds(steps: readonly FlowStep[]): string[] {
  const of = (c: Condition): string[] => {
    if ('all' in c) return c.all.flatMap(of);
    if ('any' in c) return c.any.flatMap(of);
    if ('not' in c) return of(c.not);
    return 'value' in c ? templateVariables(c.value) : [];
  };
  return steps.flatMap((step) => {
    if (typeof step === 'number') return [];
    if (step.kind === 'if')
      return [...of(step.condition), ...conditionNeeds(step.then), ...conditionNeeds(step.else)];
    return [...(step.while === undefined ? [] : of(step.while)), ...conditionNeeds(step.steps)];
  });
}

/** The variables `loop: over` loops store their items in. */
function loopVariables(steps: readonly FlowStep[]): string[] {
  return steps.flatMap((step) => {
    if (typeof step === 'number') return [];
    if (step.kind === 'if') return [...loopVariables(step.then), ...loopVariables(step.else)];
    return [...(step.as === undefined ? [] : [step.as]), ...loopVariables(step.steps)];
  });
}

/** Variables the auth settings read (a bearer token such as {{token}}). */
export function authNeeds(plan: Plan): string[] {
  const auth = plan.auth;
  if (auth === undefined || auth.type === 'oauth2') return [];
  const templates: Template[] =
    auth.type === 'bearer' ? [auth.token] : [auth.username, auth.password];
  return templates.flatMap((t) => templateVariables(t));
}

/**
 * Placeholders that nothing can fill, as validation errors: a feeder column typo (`{{user_name}}`
 * where the file has `username`) would otherwise send nothing all run long. Each names what can
 * fill a placeholder, the feeder's fields first, with a did-you-mean.
 */
export function checkPlaceholders(plan: Plan): Refinement[] {
  const providers = variableProviders(plan);
  const known = [...providers.keys()];
  const fields = plan.feeder?.records.fields ?? [];
  const expected =
    known.length === 0
      ? 'a placeholder something fills: no feeder field, extractor or built-in provides any'
      : `a placeholder something fills: ${[
          ...(fields.length === 0
            ? []
            : [`the fields of ${basename(plan.feeder!.file)}: ${fields.join(', ')}`]),
          ...known.filter((k) => !fields.includes(k)).map((k) => `${k} (extracted)`),
        ].join('; ')}`;
  const issues: Refinement[] = [];
  // A `loop: over` stores an object item's fields as `as.field` too.
  const items = plan.graph.flows.flatMap((f) => loopVariables(f.steps)).map((v) => `${v}.`);
  const check = (needs: readonly string[], path: (string | number)[]): void => {
    for (const variable of needs) {
      if (providers.has(variable) || items.some((prefix) => variable.startsWith(prefix))) continue;
      const guess = closest(variable, known);
      issues.push({
        code: 'unknown_variable',
        path,
        expected,
        actual: `{{${variable}}}`,
        ...(guess === undefined ? {} : { hint: `did you mean {{${guess}}}?` }),
      });
    }
  };
  plan.graph.endpoints.forEach((endpoint, i) => check(endpoint.needs, ['endpoints', i]));
  plan.graph.flows.forEach((flow, i) =>
    check([...new Set(conditionNeeds(flow.steps))], ['flows', i]),
  );
  // A TypeScript scenario's vars.set() fills auth's placeholders ({{token}}), which nothing here
  // can know of: its requests carry no Authorization until it has.
  if (plan.script === undefined) check(authNeeds(plan), ['auth']);
  return issues;
}
