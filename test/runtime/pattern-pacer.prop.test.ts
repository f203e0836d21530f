import fc from 'fast-check';
import t from 'tap';
import type { PatternPlan } from '../../model/plan/rate-plan.js';
import { PatternPacer } from '../../runtime/schedule/pattern-pacer.js';
import {
  patternDurationMs,
  patternPieces,
  permitsBy,
} from '../../runtime/schedule/rate-function.js';

/** Rates with awkward fractions and zeros (pauses), kept low so every permit can be listed. */
const RATE = fc.oneof(
  fc.constantFrom(0, 0.3, 3, 7.3, 20, 333),
  fc.double({ min: 0.01, max: 400, noNaN: true }),
);

const patterns: fc.Arbitrary<PatternPlan> = fc.oneof(
  fc.record({
    type: fc.constant('ramp' as const),
    from: RATE,
    to: RATE,
    durationMs: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({
    type: fc.constant('step' as const),
    steps: fc.array(fc.record({ rate: RATE, durationMs: fc.integer({ min: 1, max: 5_000 }) }), {
      minLength: 1,
      maxLength: 5,
    }),
  }),
  fc
    .tuple(RATE, RATE, fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 5, maxLength: 5 }))
    .map(([base, peak, [atMs, riseMs, holdMs, fallMs, restMs]]) => ({
      type: 'spike' as const,
      base,
      peak,
      atMs: atMs!,
      riseMs: riseMs!,
      holdMs: holdMs!,
      fallMs: fallMs!,
      durationMs: atMs! + riseMs! + holdMs! + fallMs! + restMs!,
    })),
);

/** Segment k·u + j's share and phase when a run is split over `processes` × `threads` (split-plan.ts). */
const segments = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }))
  .chain(([processes, threads]) =>
    fc.tuple(
      fc.constant(processes * threads),
      fc.integer({ min: 0, max: processes * threads - 1 }),
    ),
  )
  .map(([parts, offset]) => ({ parts, share: 1 / parts, phase: offset / parts }));

/** Every permit of a pacer due by `untilUs`, in order. */
function listTimes(pacer: PatternPacer, untilUs: number): number[] {
  const out: number[] = [];
  for (let n = 0; ; n++) {
    const time = pacer.intendedTime(n);
    if (time > untilUs) return out;
    out.push(time);
  }
}

/** Permits due by `us`: how many listed times are ≤ us (binary search; the list is sorted). */
function countBy(times: readonly number[], us: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! <= us) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Times to test a count at: random ones, and the pieces' corners, where rounding bites. */
function probes(pattern: PatternPlan, random: readonly number[]): number[] {
  const corners = patternPieces(pattern).flatMap((p) => [p.startMs, p.endMs]);
  return [...random, ...corners].map((ms) => ms * 1000);
}

t.test('intended times never decrease, whatever the pattern and segment', async (t) => {
  fc.assert(
    fc.property(patterns, segments, (pattern, segment) => {
      const pacer = new PatternPacer(pattern, segment.share, segment.phase);
      const times = listTimes(pacer, (patternDurationMs(pattern) + 1000) * 1000);
      return times.every((time, n) => n === 0 || time >= times[n - 1]!);
    }),
  );
  t.pass('the property held (fast-check throws a shrunk counterexample otherwise)');
});

/*
 * With y(t) = permitsBy(t) · share - phase, the segment's share of the integral, the permits due
 * by t are the n ≥ 0 with n ≤ y(t), except that a permit whose level the integral only touches
 * (a pause of rate 0 at n = y) waits for the rate to resume:
 *   count(t) = floor(y) + 1       when y ≥ 0 is not an integer
 *   count(t) ∈ { y, y + 1 }       when y is an integer (y + 1 from the permit's own time on,
 *                                 y while the integral is flat at that level)
 *   count(t) = 0                  when y < 0
 * up to ε = 1e-9 · (1 + y) of rounding in y.
 */
t.test('the permits due by t are the floor of the integral, exactly', async (t) => {
  fc.assert(
    fc.property(
      patterns,
      segments,
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }),
      (pattern, segment, fractions) => {
        const endMs = patternDurationMs(pattern) + 1000;
        const pacer = new PatternPacer(pattern, segment.share, segment.phase);
        const times = listTimes(pacer, endMs * 1000);
        const random = fractions.map((f) => f * endMs);
        return probes(pattern, random).every((us) => {
          const y = permitsBy(pattern, us / 1000) * segment.share - segment.phase;
          const epsilon = 1e-9 * (1 + Math.abs(y));
          const count = countBy(times, us);
          const low = Math.max(0, Math.ceil(y - epsilon));
          const high = Math.max(0, Math.floor(y + epsilon) + 1);
          return count >= low && count <= high;
        });
      },
    ),
  );
  t.pass('the property held (fast-check throws a shrunk counterexample otherwise)');
});

t.test("a split run's segments pace exactly the run's permits, none twice", async (t) => {
  fc.assert(
    fc.property(patterns, fc.integer({ min: 1, max: 16 }), (pattern, parts) => {
      const untilUs = patternDurationMs(pattern) * 1000;
      const run = listTimes(new PatternPacer(pattern, 1), untilUs);
      const merged = Array.from({ length: parts }, (_, k) =>
        listTimes(new PatternPacer(pattern, 1 / parts, k / parts), untilUs),
      )
        .flat()
        .sort((a, b) => a - b);
      return (
        merged.length === run.length &&
        merged.every((time, m) => Math.abs(time - run[m]!) <= 1e-6 * (1 + time))
      );
    }),
  );
  t.pass('the property held (fast-check throws a shrunk counterexample otherwise)');
});
