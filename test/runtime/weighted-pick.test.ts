import t from 'tap';
import { pickTable } from '../../dsl/compile/scenario-graph.js';
import { seededRandom } from '../../model/random.js';
import { pickIndex, weightedPick } from '../../runtime/worker/weighted-pick.js';

t.test('cumulative ranges: r in [cum[i-1], cum[i]) picks i (spec §1 rule 8)', async (t) => {
  const cumulative = [8, 10];
  const picks = Array.from({ length: 10 }, (_, r) => pickIndex(cumulative, r));
  t.same(picks, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
  t.same(
    [0, 1, 2, 3, 5, 6].map((r) => pickIndex([1, 3, 6], r)),
    [0, 1, 1, 2, 2, 2],
  );
});

t.test('8:2 weights give about 80/20 with a fixed seed', async (t) => {
  const table = pickTable([
    { item: { kind: 'endpoint', index: 0 }, weight: 8 },
    { item: { kind: 'endpoint', index: 1 }, weight: 2 },
  ]);
  const random = seededRandom(42);
  let first = 0;
  const n = 20_000;
  for (let i = 0; i < n; i++) if (weightedPick(table, random).index === 0) first++;
  // Binomial(20000, 0.8): sd ≈ 57; 4 sd is ±0.011.
  t.ok(Math.abs(first / n - 0.8) < 0.012, `share ${first / n}`);
});

t.test('the same seed gives the same sequence', async (t) => {
  const table = pickTable(
    [1, 2, 3].map((w, index) => ({ item: { kind: 'endpoint' as const, index }, weight: w })),
  );
  const a = seededRandom(9);
  const b = seededRandom(9);
  const seqA = Array.from({ length: 50 }, () => weightedPick(table, a).index);
  const seqB = Array.from({ length: 50 }, () => weightedPick(table, b).index);
  t.same(seqA, seqB);
});
