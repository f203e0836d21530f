/**
 * `flows`: weighted sequences of steps (docs/configuration.md, Endpoints and flows; Loops and
 * conditions). A step is an endpoint name, a `loop` or an `if`; conditions are declarative, on a
 * variable, the last response's status or its JSON body. The rules between keys (one loop kind, a
 * bound within the limit, one subject per condition, the nesting depth) are flow-rules.ts'.
 */
import * as z from 'zod';
import { statusList } from './check-schema.js';
import { flag, nonEmpty, positiveInt, template, thinkTime } from './fields.js';
import { jsonPath, regexPattern } from './pattern-fields.js';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** The forms of a condition, for errors. */
export const CONDITION_FORMS =
  'a condition: { var: name, equals | not_equals | matches: value } or { var: name, exists: true | false }, { status: 401 }, { json: $.path, exists | equals | not_equals: value }, { all: [...] }, { any: [...] } or { not: condition }';

/** The forms of a step, for errors. */
export const STEP_FORMS =
  'an endpoint name, { loop: { count | over, as | while, max, steps } } or { if: <condition>, steps: [...], else: [...] }';

/** A variable name, as extractors write one. */
function variableName(what: string) {
  return z
    .string({ error: `a variable name (${what})` })
    .regex(VARIABLE_NAME, { error: `a variable name: letters, digits, _ . - (${what})` });
}

/** A value a condition compares with: text (placeholders allowed), a number or a boolean. */
function comparedValue() {
  return z.union([template('a value to compare with'), z.number(), z.boolean()], {
    error: 'a value to compare with: text ({{name}} placeholders allowed), a number or a boolean',
  });
}

let conditions: z.ZodType<ConditionConfig> | undefined;
let steps: z.ZodType<StepConfig> | undefined;

/**
 * One condition, its keys as written; conditionRules() (flow-rules.ts) judges them together.
 * Built once, so that its recursion is one schema referring to itself.
 */
export function conditionSchema(): z.ZodType<ConditionConfig> {
  return (conditions ??= buildConditionSchema());
}

function buildConditionSchema(): z.ZodType<ConditionConfig> {
  return z.strictObject(
    {
      var: variableName('the variable the condition reads').optional(),
      status: statusList('statuses of the last response').optional(),
      json: jsonPath().optional(),
      equals: comparedValue().optional(),
      not_equals: comparedValue().optional(),
      matches: regexPattern().optional(),
      exists: flag('whether it exists').optional(),
      all: z.array(z.lazy(conditionSchema), { error: 'a list of conditions' }).min(1).optional(),
      any: z.array(z.lazy(conditionSchema), { error: 'a list of conditions' }).min(1).optional(),
      not: z.lazy(conditionSchema).optional(),
    },
    { error: CONDITION_FORMS },
  ) as unknown as z.ZodType<ConditionConfig>;
}

/** A condition as parsed. */
export interface ConditionConfig {
  readonly var?: string;
  readonly status?: readonly { readonly min: number; readonly max: number }[];
  readonly json?: string;
  readonly equals?: string | number | boolean;
  readonly not_equals?: string | number | boolean;
  readonly matches?: string;
  readonly exists?: boolean;
  readonly all?: readonly ConditionConfig[];
  readonly any?: readonly ConditionConfig[];
  readonly not?: ConditionConfig;
}

/** A loop as parsed. */
export interface LoopConfig {
  readonly count?: number;
  readonly over?: string;
  readonly as?: string;
  readonly while?: ConditionConfig;
  readonly max?: number;
  readonly steps: readonly StepConfig[];
}

/** A step as parsed. */
export type StepConfig =
  | string
  | { readonly loop: LoopConfig }
  | {
      readonly if: ConditionConfig;
      readonly steps: readonly StepConfig[];
      readonly else?: readonly StepConfig[];
    };

/** A list of steps. */
function stepList(what: string) {
  return z
    .array(z.lazy(stepSchema), { error: `a list of steps (${what}), each ${STEP_FORMS}` })
    .min(1, { error: `at least one step (${what})` });
}

/** One step (built once, as conditions are). */
export function stepSchema(): z.ZodType<StepConfig> {
  return (steps ??= buildStepSchema());
}

function buildStepSchema(): z.ZodType<StepConfig> {
  return z.union(
    [
      nonEmpty('endpoint name'),
      z.strictObject(
        {
          loop: z.strictObject(
            {
              count: positiveInt('passes', 0).optional(),
              over: variableName('the variable holding a JSON list').optional(),
              as: variableName('the variable each item is stored in').optional(),
              while: z.lazy(conditionSchema).optional(),
              max: positiveInt('the most passes the loop may make').optional(),
              steps: stepList('the loop body'),
            },
            { error: '{ count | over, as | while, max, steps }' },
          ),
        },
        { error: '{ loop: { … } }' },
      ),
      z.strictObject(
        {
          if: z.lazy(conditionSchema),
          steps: stepList('when the condition holds'),
          else: stepList('when it does not').optional(),
        },
        { error: '{ if: <condition>, steps: [...], else: [...] }' },
      ),
    ],
    { error: STEP_FORMS },
  ) as unknown as z.ZodType<StepConfig>;
}

/** A weighted, ordered sequence of steps; one flow per permit. */
export function flowSchema() {
  return z.strictObject(
    {
      name: nonEmpty('flow name'),
      weight: positiveInt('flow weight').default(1),
      think: thinkTime('pause between steps')
        .optional()
        .describe(
          "Pause between steps (an endpoint's own think wins): 2s, or a range such as 1s-3s",
        ),
      steps: stepList('endpoint names, loops and ifs'),
    },
    { error: 'a flow: { name, weight, steps: [endpoint names, loops, ifs] }' },
  );
}
