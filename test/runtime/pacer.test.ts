import t from 'tap';
import type { PatternPlan } from '../../model/plan/rate-plan.js';
import { ConstantPacer } from '../../runtime/schedule/pacer.js';
import { PatternPacer } from '../../runtime/schedule/pattern-pacer.js';

/** Intended times to the nanosecond (the inverse of a pattern's integral is exact up to rounding). */
const times = (pacer: { intendedTime(n: number): number }, ns: readonly number[]): number[] =>
  ns.map((n) => Math.round(pacer.intendedTime(n) * 1000) / 1000);

t.test('a constant rate spaces permits exactly, from the schedule', async (t) => {
  const pacer = new ConstantPacer(1000);
  t.same(times(pacer, [0, 1, 2500]), [0, 1000, 2_500_000]);
  t.equal(pacer.rateAt(7), 1000);
});

t.test('a phase staggers a segment within its own permit period', async (t) => {
  const pacer = new ConstantPacer(100, 0.25);
  t.equal(pacer.intendedTime(0), 2500, 'a quarter of the 10 ms period');
  t.equal(pacer.intendedTime(1), 12_500);
});

t.test('rate 0 sends nothing', async (t) => {
  t.equal(new ConstantPacer(0).intendedTime(0), Infinity);
});

t.test('a schedule of N permits has no permit N, whatever the floating point says', async (t) => {
  const pacer = new ConstantPacer(20, 0, 60);
  t.ok(pacer.intendedTime(59) < 3_000_000);
  t.equal(pacer.intendedTime(60), Infinity, '60 / 20 per s would come out just under 3 s');
});

t.test('a ramp from 0 inverts its quadratic integral: permit m at √(2m / slope)', async (t) => {
  // 0 → 1000/s over 10 s: slope 100/s², permits(t) = 50 t², so permit m is due at √(m / 50) s.
  const ramp: PatternPlan = { type: 'ramp', from: 0, to: 1000, durationMs: 10_000 };
  const pacer = new PatternPacer(ramp, 1);
  t.same(times(pacer, [0, 50, 200, 5000]), [0, 1_000_000, 2_000_000, 10_000_000]);
  t.equal(pacer.intendedTime(5001), 10_001_000, 'after the ramp its last rate holds');
  t.equal(pacer.rateAt(5_000_000), 500);
});

t.test('a falling ramp paces its permits to the end, none past it', async (t) => {
  // 100 → 0/s over 2 s: 100 permits; permits(t) = 100 t - 25 t², so permit 75 at 1 s, 100 at 2 s.
  const fall: PatternPlan = { type: 'ramp', from: 100, to: 0, durationMs: 2000 };
  const pacer = new PatternPacer(fall, 1);
  t.same(times(pacer, [75, 99]), [1_000_000, 1_800_000]);
  t.equal(pacer.intendedTime(100), Infinity, 'the rate stays 0 after the end: never due');
});

t.test('steps of rate 0 send nothing, not even at their start', async (t) => {
  const step: PatternPlan = {
    type: 'step',
    steps: [
      { rate: 0, durationMs: 1000 },
      { rate: 10, durationMs: 1000 },
      { rate: 0, durationMs: 1000 },
      { rate: 20, durationMs: 1000 },
    ],
  };
  const pacer = new PatternPacer(step, 1);
  t.same(times(pacer, [0, 1, 9]), [1_000_000, 1_100_000, 1_900_000]);
  t.equal(pacer.intendedTime(10), 3_000_000, 'permit 10 waits for the pause to end');
  t.equal(pacer.intendedTime(11), 3_050_000);
});

t.test(
  'a step whose integral misses an integer by rounding still waits out the pause',
  async (t) => {
    // 0.1/s for 2.3 s and 1.1/s for 0.7 s integrate to 1, which the sum makes 1.0000000000000002.
    const step: PatternPlan = {
      type: 'step',
      steps: [
        { rate: 0.1, durationMs: 2300 },
        { rate: 1.1, durationMs: 700 },
        { rate: 0, durationMs: 2000 },
        { rate: 1, durationMs: 1000 },
      ],
    };
    t.same(times(new PatternPacer(step, 1), [0, 1, 2]), [0, 5_000_000, 6_000_000]);
  },
);

t.test('a jump to a spike is paced at both rates', async (t) => {
  const spike: PatternPlan = {
    type: 'spike',
    base: 10,
    peak: 100,
    durationMs: 3000,
    atMs: 1000,
    riseMs: 0,
    holdMs: 1000,
    fallMs: 0,
  };
  const pacer = new PatternPacer(spike, 1);
  t.same(
    times(pacer, [9, 10, 11, 110, 111]),
    [900_000, 1_000_000, 1_010_000, 2_000_000, 2_100_000],
  );
});

t.test('a segment paces every S-th permit of the run from its phase', async (t) => {
  // Segment 2 of 4 (share 1/4, phase 2/4) of a 0 → 1000/s ramp: the run's permits 2, 6, 10, …
  const ramp: PatternPlan = { type: 'ramp', from: 0, to: 1000, durationMs: 10_000 };
  const run = new PatternPacer(ramp, 1);
  const segment = new PatternPacer(ramp, 1 / 4, 2 / 4, 3);
  t.same(times(segment, [0, 1, 2]), times(run, [2, 6, 10]));
  t.equal(segment.intendedTime(3), Infinity, 'its share of the permits is spent');
  t.equal(segment.rateAt(10_000_000), 250);
});
