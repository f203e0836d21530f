import t from 'tap';
import type { PatternPlan } from '../../model/plan/rate-plan.js';
import { patternDurationMs, permitsBy, rateAt } from '../../runtime/schedule/rate-function.js';

t.test('ramp: linear from → to', async (t) => {
  const ramp: PatternPlan = { type: 'ramp', from: 10, to: 110, durationMs: 10_000 };
  t.same(
    [0, 2500, 5000, 10_000, 20_000].map((ms) => rateAt(ramp, ms)),
    [10, 35, 60, 110, 110],
  );
  t.equal(patternDurationMs(ramp), 10_000);
});

t.test('step: the active step gives the rate', async (t) => {
  const step: PatternPlan = {
    type: 'step',
    steps: [
      { rate: 5, durationMs: 1000 },
      { rate: 50, durationMs: 2000 },
      { rate: 0, durationMs: 500 },
    ],
  };
  t.same(
    [0, 999, 1000, 2999, 3000, 3499, 9999].map((ms) => rateAt(step, ms)),
    [5, 5, 50, 50, 0, 0, 0],
  );
  t.equal(patternDurationMs(step), 3500);
});

t.test('spike: base, rise, hold, fall, base', async (t) => {
  const spike: PatternPlan = {
    type: 'spike',
    base: 10,
    peak: 110,
    durationMs: 10_000,
    atMs: 2000,
    riseMs: 1000,
    holdMs: 2000,
    fallMs: 1000,
  };
  t.same(
    [0, 1999, 2000, 2500, 3000, 4999, 5000, 5500, 6000, 9999].map((ms) => rateAt(spike, ms)),
    [10, 10, 10, 60, 110, 110, 110, 60, 10, 10],
  );
  const jump: PatternPlan = { ...spike, riseMs: 0, fallMs: 0 };
  t.same(
    [1999, 2000, 3999, 4000].map((ms) => rateAt(jump, ms)),
    [10, 110, 110, 10],
  );
});

t.test('permitsBy is the exact integral of the rate, piece by piece', async (t) => {
  const ramp: PatternPlan = { type: 'ramp', from: 10, to: 110, durationMs: 10_000 };
  t.same(
    [0, 5000, 10_000, 12_000].map((ms) => permitsBy(ramp, ms)),
    [0, 175, 600, 820],
  );
  const spike: PatternPlan = {
    type: 'spike',
    base: 10,
    peak: 110,
    durationMs: 10_000,
    atMs: 2000,
    riseMs: 1000,
    holdMs: 2000,
    fallMs: 1000,
  };
  // 20 before the rise, 60 rising, 220 at the peak, 60 falling, 40 after.
  t.equal(permitsBy(spike, 10_000), 400);
  const step: PatternPlan = {
    type: 'step',
    steps: [
      { rate: 5, durationMs: 1000 },
      { rate: 50, durationMs: 2000 },
    ],
  };
  t.same(
    [500, 1000, 2000, 3000, 4000].map((ms) => permitsBy(step, ms)),
    [2.5, 5, 55, 105, 155],
  );
});
