/**
 * `scenarios`: named loads of one run, each with its own executor, traffic, start time and tags
 * (docs/configuration.md, Scenarios). An executor is k6's, its keys in snake_case:
 *
 *   constant-vus           vus, duration
 *   ramping-vus            start_vus, stages [{ duration, target }], graceful_ramp_down
 *   constant-arrival-rate  rate, time_unit, duration, pre_allocated_vus, max_vus, arrivals
 *   ramping-arrival-rate   start_rate, time_unit, stages, pre_allocated_vus, max_vus, arrivals
 *   per-vu-iterations      vus, iterations, max_duration
 *   shared-iterations      vus, iterations, max_duration
 *
 * Every scenario takes start_time, graceful_stop, tags, and flows or endpoints (names of the
 * top-level ones it draws its iterations from; default: all of them, by their weights).
 */
import * as z from 'zod';
import { duration, nonEmpty, positiveInt, positiveNumber, userTags } from './fields.js';

const SCENARIO_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** One scenario: its executor's keys and the ones every scenario takes. */
function executorSchema() {
  const stage = z.strictObject(
    {
      duration: duration('length of the stage', true),
      target: z.number({ error: 'a number ≥ 0 (the target at the stage end)' }).min(0, {
        error: 'a number ≥ 0 (the target at the stage end)',
      }),
    },
    { error: 'a stage { duration, target }' },
  );
  const stages = z
    .array(stage, { error: 'a list of stages { duration, target }' })
    .min(1, { error: 'at least one stage' });

  const common = {
    start_time: duration('when the scenario starts, from the run start', true)
      .default(0)
      .describe('When the scenario starts, from the start of the run'),
    graceful_stop: duration('time in-flight iterations get once the scenario ends', true)
      .default(30_000)
      .describe('How long iterations under way at the scenario end may finish'),
    tags: userTags("the scenario's samples"),
    flows: z.array(nonEmpty('flow name'), { error: 'a list of flow names' }).min(1).optional(),
    endpoints: z
      .array(nonEmpty('endpoint name'), { error: 'a list of endpoint names' })
      .min(1)
      .optional(),
    exec: nonEmpty('exported function of the TypeScript scenario').optional(),
  };

  const arrivals = z
    .enum(['even', 'poisson'], { error: 'even or poisson (how arrivals are spaced)' })
    .default('even');
  const timeUnit = duration('time unit of the rate').default(1000);

  return z.discriminatedUnion(
    'executor',
    [
      z.strictObject({
        executor: z.literal('constant-vus'),
        vus: positiveInt('virtual users').default(1),
        duration: duration('length of the scenario'),
        ...common,
      }),
      z.strictObject({
        executor: z.literal('ramping-vus'),
        start_vus: positiveInt('virtual users at the start', 0).default(1),
        stages,
        graceful_ramp_down: duration(
          'time an iteration gets when its VU is ramped down',
          true,
        ).default(30_000),
        ...common,
      }),
      z.strictObject({
        executor: z.literal('constant-arrival-rate'),
        rate: positiveNumber('iterations per time unit'),
        time_unit: timeUnit,
        duration: duration('length of the scenario'),
        pre_allocated_vus: positiveInt('virtual users allocated at the start'),
        max_vus: positiveInt('most virtual users').optional(),
        arrivals,
        ...common,
      }),
      z.strictObject({
        executor: z.literal('ramping-arrival-rate'),
        start_rate: positiveNumber('iterations per time unit at the start', true).default(0),
        time_unit: timeUnit,
        stages,
        pre_allocated_vus: positiveInt('virtual users allocated at the start'),
        max_vus: positiveInt('most virtual users').optional(),
        arrivals,
        ...common,
      }),
      z.strictObject({
        executor: z.literal('per-vu-iterations'),
        vus: positiveInt('virtual users').default(1),
        iterations: positiveInt('iterations of each virtual user').default(1),
        max_duration: duration('longest the scenario may last').default(600_000),
        ...common,
      }),
      z.strictObject({
        executor: z.literal('shared-iterations'),
        vus: positiveInt('virtual users').default(1),
        iterations: positiveInt('iterations shared by the virtual users').default(1),
        max_duration: duration('longest the scenario may last').default(600_000),
        ...common,
      }),
    ],
    {
      error:
        'a scenario with an executor: constant-vus, ramping-vus, constant-arrival-rate, ramping-arrival-rate, per-vu-iterations or shared-iterations',
    },
  );
}

/** One scenario as written (the schema's output). */
export type ScenarioConfig = z.output<ReturnType<typeof executorSchema>>;

/** `scenarios`: name → scenario (a scenario's schema built at the first one parsed). */
export const scenariosSchema = z
  .record(
    z.string().regex(SCENARIO_NAME, { error: 'a scenario name (letters, digits, _ and -)' }),
    z.lazy(executorSchema),
    { error: 'a mapping of scenario names to scenarios' },
  )
  .refine((s) => Object.keys(s).length > 0, { error: 'at least one scenario' })
  .describe(
    'Named scenarios, each with its own executor (k6 semantics), flows, start time and tags; see docs/configuration.md, Scenarios',
  );
