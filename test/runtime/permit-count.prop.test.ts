import fc from 'fast-check';
import t from 'tap';
import { scenarioFixture } from '../helpers/scenario-fixture.js';
import type { Plan } from '../../model/plan/plan.js';
import type { PatternPlan, RatePlan } from '../../model/plan/rate-plan.js';
import { ConstantPacer, type Pacer } from '../../runtime/schedule/pacer.js';
import { PatternPacer } from '../../runtime/schedule/pattern-pacer.js';
import { scheduleEndMs, scheduledPermits } from '../../runtime/schedule/permit-count.js';
import { PermitQueue } from '../../runtime/schedule/permit-queue.js';
import { permitsBy } from '../../runtime/schedule/rate-function.js';
import { Scheduler } from '../../runtime/schedule/scheduler.js';
import { splitPlan } from '../../runtime/split/split-plan.js';

function plan(rate: RatePlan, durationMs: number | undefined, concurrency: number): Plan {
  if (rate.kind === 'unlimited') throw new Error('an open-model plan');
  return {
    segment: { index: 1, count: 1 },
    scenarios: [
      scenarioFixture({
        kind: 'arrival-rate',
        rate,
        durationMs,
        iterations: undefined,
        preAllocatedVus: concurrency,
        maxVus: concurrency,
        waitMs: 10_000,
        arrivals: 'even',
      }),
    ],
  } as unknown as Plan;
}

/** The rate and length of a fixture plan's one arrival-rate scenario. */
function loadOf(base: Plan): { rate: RatePlan; durationMs: number | undefined } {
  const executor = base.scenarios[0]!.executor;
  if (executor.kind !== 'arrival-rate') throw new Error('an open-model plan');
  return executor;
}

interface Dispatched {
  readonly sent: number;
  readonly pacer: Pacer;
}

/**
 * Runs every segment of every process's scheduler as a wake-up at the schedule's end would: all
 * permits due before the end go out in one pass, so no clock is involved.
 */
async function dispatchAll(base: Plan, processes: number, threads: number): Promise<Dispatched[]> {
  const endUs = scheduleEndMs(loadOf(base).rate, loadOf(base).durationMs) * 1000;
  const out: Dispatched[] = [];
  for (let index = 1; index <= processes; index++) {
    for (const segment of splitPlan({ ...base, segment: { index, count: processes } }, threads)) {
      const spec = segment.scenarios[0]!;
      const rate = loadOf(base).rate;
      const pacer: Pacer =
        rate.kind === 'pattern'
          ? new PatternPacer(rate.pattern, spec.rateShare, spec.phase, spec.permits)
          : new ConstantPacer(
              rate.kind === 'constant' ? rate.rate * spec.rateShare : 0,
              spec.phase,
              spec.permits,
            );
      const queue = new PermitQueue(() => endUs, Infinity, Infinity, {
        late: () => undefined,
        dropped: () => undefined,
      });
      const scheduler = new Scheduler(pacer, queue, () => endUs, Infinity, endUs);
      await scheduler.run();
      out.push({ sent: scheduler.sent, pacer });
    }
  }
  return out;
}

const total = (all: readonly Dispatched[]): number => all.reduce((sum, d) => sum + d.sent, 0);

const RATES = [0.5, 3, 7.3, 20, 333];

t.test('the issue 23 runs: rate × duration permits, not one more', async (t) => {
  for (const [rate, ms, threads, expected] of [
    [20, 3000, 1, 60],
    [10, 2000, 1, 20],
    [100, 3000, 1, 300],
    [20, 3000, 2, 60],
    [10, 2000, 2, 20],
    [0.5, 3000, 1, 2],
    [7.3, 1000, 3, 7],
  ] as const) {
    const all = await dispatchAll(plan({ kind: 'constant', rate }, ms, 8), 1, threads);
    t.equal(total(all), expected, `${rate}/s for ${ms} ms on ${threads} thread(s)`);
  }
});

t.test('a constant rate R for D sends round(R × D) over threads and processes', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(fc.constantFrom(...RATES), fc.double({ min: 0.01, max: 400, noNaN: true })),
      fc.integer({ min: 1, max: 60_000 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 9 }),
      async (rate, ms, processes, threads, concurrency) => {
        const base = plan({ kind: 'constant', rate }, ms, concurrency);
        const all = await dispatchAll(base, processes, threads);
        const expected = Math.round((rate * ms) / 1000);
        if (
          total(all) !== expected ||
          scheduledPermits(loadOf(base).rate, loadOf(base).durationMs) !== expected
        )
          return false;
        // Merged, the segments' permits are the run's permits m = 0, 1, … at m / R: none twice.
        const times = all
          .flatMap((d) => Array.from({ length: d.sent }, (_, n) => d.pacer.intendedTime(n)))
          .sort((a, b) => a - b);
        return times.every(
          (time, m) => Math.abs(time - (m * 1e6) / rate) <= 1e-6 * (1 + time) && time < ms * 1000,
        );
      },
    ),
  );
  t.pass('the property held (fast-check throws a shrunk counterexample otherwise)');
});

const patterns: fc.Arbitrary<PatternPlan> = fc.oneof(
  fc.record({
    type: fc.constant('ramp' as const),
    from: fc.constantFrom(0, ...RATES),
    to: fc.constantFrom(0, ...RATES),
    durationMs: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({
    type: fc.constant('step' as const),
    steps: fc.array(
      fc.record({
        rate: fc.constantFrom(0, ...RATES),
        durationMs: fc.integer({ min: 1, max: 5_000 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
  fc
    .tuple(
      fc.constantFrom(...RATES),
      fc.constantFrom(...RATES),
      fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 4, maxLength: 4 }),
    )
    .map(([base, peak, [atMs, riseMs, holdMs, fallMs]]) => ({
      type: 'spike' as const,
      base,
      peak,
      atMs: atMs!,
      riseMs: riseMs!,
      holdMs: holdMs!,
      fallMs: fallMs!,
      durationMs: atMs! + riseMs! + holdMs! + fallMs! + 500,
    })),
);

t.test('a pattern sends the rounded integral of its rate, however it is split', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      patterns,
      fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      async (pattern, durationMs, processes, threads) => {
        const base = plan({ kind: 'pattern', pattern }, durationMs, 6);
        const expected = Math.round(
          permitsBy(pattern, scheduleEndMs(loadOf(base).rate, loadOf(base).durationMs)),
        );
        return total(await dispatchAll(base, processes, threads)) === expected;
      },
    ),
  );
  t.pass('the property held (fast-check throws a shrunk counterexample otherwise)');
});
