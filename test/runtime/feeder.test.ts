import t from 'tap';
import { createFeeder, type Feeder } from '../../runtime/feeder/feeder.js';
import { tableOf } from '../helpers/feeder-table.js';
import { seededRandom } from '../../model/random.js';

const records = tableOf(['a', 'b', 'c', 'd'].map((n) => ({ n })));
const all = { first: 0, stride: 1 };
const take = (feeder: Feeder, count: number) =>
  Array.from({ length: count }, () => feeder.next()?.values[0]);

t.test('sequential walks the file order and cycles', async (t) => {
  t.same(
    take(createFeeder({ order: 'sequential', cycle: true, records }, all, seededRandom(1)), 6),
    ['a', 'b', 'c', 'd', 'a', 'b'],
  );
  t.same(
    take(createFeeder({ order: 'sequential', cycle: false, records }, all, seededRandom(1)), 5),
    ['a', 'b', 'c', 'd', undefined],
  );
});

t.test('shuffle uses every record once per pass', async (t) => {
  const feeder = createFeeder({ order: 'shuffle', cycle: true, records }, all, seededRandom(3));
  for (let pass = 0; pass < 5; pass++) t.same(take(feeder, 4).sort(), ['a', 'b', 'c', 'd']);
  const fixed = take(
    createFeeder({ order: 'shuffle', cycle: true, records }, all, seededRandom(3)),
    8,
  );
  t.same(
    take(createFeeder({ order: 'shuffle', cycle: true, records }, all, seededRandom(3)), 8),
    fixed,
    'seeded: reproducible',
  );
});

t.test('random draws with replacement; without cycle it stops after as many records', async (t) => {
  const drawn = take(
    createFeeder({ order: 'random', cycle: true, records }, all, seededRandom(5)),
    100,
  );
  t.ok(drawn.every((n) => n !== undefined && 'abcd'.includes(n)));
  t.equal(new Set(drawn).size, 4);
  t.same(
    take(createFeeder({ order: 'random', cycle: false, records }, all, seededRandom(5)), 5).filter(
      (x) => x === undefined,
    ).length,
    1,
  );
  t.equal(
    createFeeder(
      { order: 'sequential', cycle: true, records: tableOf([]) },
      all,
      seededRandom(1),
    ).next(),
    undefined,
  );
});
