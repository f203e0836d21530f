import t from 'tap';
import { scenarioFixture } from '../helpers/scenario-fixture.js';
import type { Plan } from '../../model/plan/plan.js';
import { sliceSize } from '../../runtime/feeder/feeder.js';
import { share, splitPlan } from '../../runtime/split/split-plan.js';
import type { SegmentSpec } from '../../runtime/split/segment-spec.js';
import { tableOf } from '../helpers/feeder-table.js';

const records = tableOf(Array.from({ length: 10 }, (_, i) => ({ n: String(i) })));

/** The record rows a segment owns. */
const rowsOf = (s: SegmentSpec): number[] =>
  Array.from(
    { length: sliceSize(records, s.records) },
    (_, i) => s.records.first + i * s.records.stride,
  );

function plan(over: { concurrency?: number; segment?: Plan['segment'] } = {}): Plan {
  const concurrency = over.concurrency ?? 10;
  return {
    segment: over.segment ?? { index: 1, count: 1 },
    feeder: { file: 'f', order: 'sequential', cycle: true, records },
    scenarios: [
      scenarioFixture({
        kind: 'vus',
        vus: concurrency,
        durationMs: undefined,
        iterations: 1001,
        perVu: false,
      }),
    ],
  } as unknown as Plan;
}

t.test('integer shares are exact', async (t) => {
  for (const [total, parts] of [
    [10, 3],
    [7, 7],
    [3, 5],
    [1001, 4],
    [0, 2],
  ] as const) {
    const shares = Array.from({ length: parts }, (_, k) => share(total, parts, k));
    t.equal(
      shares.reduce((a, b) => a + b, 0),
      total,
      `${total}/${parts}`,
    );
    t.ok(Math.max(...shares) - Math.min(...shares) <= 1);
  }
});

t.test('threads get exact shares of workers, requests and records', async (t) => {
  const specs = splitPlan(plan(), 3);
  t.same(
    specs.map((s) => s.scenarios[0]!.workers),
    [4, 3, 3],
  );
  t.same(
    specs.map((s) => s.scenarios[0]!.firstWorkerId),
    [0, 4, 7],
  );
  t.equal(
    specs.reduce((a, s) => a + (s.scenarios[0]!.iterations ?? 0), 0),
    1001,
  );
  t.same(
    specs.flatMap(rowsOf).sort((a, b) => a - b),
    Array.from({ length: 10 }, (_, i) => i),
  );
  t.same(
    specs.map((s) => s.scenarios[0]!.rateShare),
    [1 / 3, 1 / 3, 1 / 3],
  );
  t.same(
    specs.map((s) => s.scenarios[0]!.phase),
    [0, 1 / 3, 2 / 3],
  );
});

t.test('never more threads than workers', async (t) => {
  t.equal(splitPlan(plan({ concurrency: 2 }), 8).length, 2);
});

t.test('distributed segments: disjoint, exact, and threads inside them', async (t) => {
  const all = [1, 2, 3].flatMap((index) => splitPlan(plan({ segment: { index, count: 3 } }), 2));
  t.equal(
    all.reduce((a, s) => a + s.scenarios[0]!.workers, 0),
    10,
  );
  t.equal(
    all.reduce((a, s) => a + (s.scenarios[0]!.iterations ?? 0), 0),
    1001,
  );
  t.same(
    all.map((s) => s.scenarios[0]!.firstWorkerId),
    [0, 2, 4, 6, 7, 9],
  );
  const used = all.flatMap(rowsOf);
  t.equal(new Set(used).size, records.count, 'every record used once across segments');
  t.equal(used.length, records.count);
  t.same(
    [...new Set(all.map((s) => s.scenarios[0]!.phase))].length,
    6,
    'each segment its own stagger',
  );
});
