import t from 'tap';
import { createFeeder } from '../../runtime/feeder/feeder.js';
import { seededRandom } from '../../runtime/random.js';

const records = ['a', 'b', 'c', 'd'].map((n) => ({ n }));
const take = (feeder: { next(): { n?: string } | undefined }, count: number) =>
  Array.from({ length: count }, () => feeder.next()?.n);

t.test('sequential walks the file order and cycles', async (t) => {
  t.same(take(createFeeder({ order: 'sequential', cycle: true }, records, seededRandom(1)), 6), [
    'a',
    'b',
    'c',
    'd',
    'a',
    'b',
  ]);
  t.same(take(createFeeder({ order: 'sequential', cycle: false }, records, seededRandom(1)), 5), [
    'a',
    'b',
    'c',
    'd',
    undefined,
  ]);
});

t.test('shuffle uses every record once per pass', async (t) => {
  const feeder = createFeeder({ order: 'shuffle', cycle: true }, records, seededRandom(3));
  for (let pass = 0; pass < 5; pass++) t.same(take(feeder, 4).sort(), ['a', 'b', 'c', 'd']);
  const fixed = take(createFeeder({ order: 'shuffle', cycle: true }, records, seededRandom(3)), 8);
  t.same(
    take(createFeeder({ order: 'shuffle', cycle: true }, records, seededRandom(3)), 8),
    fixed,
    'seeded: reproducible',
  );
});

t.test('random draws with replacement; without cycle it stops after as many records', async (t) => {
  const drawn = take(createFeeder({ order: 'random', cycle: true }, records, seededRandom(5)), 100);
  t.ok(drawn.every((n) => n !== undefined && 'abcd'.includes(n)));
  t.equal(new Set(drawn).size, 4);
  t.same(
    take(createFeeder({ order: 'random', cycle: false }, records, seededRandom(5)), 5).filter(
      (x) => x === undefined,
    ).length,
    1,
  );
  t.equal(
    createFeeder({ order: 'sequential', cycle: true }, [], seededRandom(1)).next(),
    undefined,
  );
});
