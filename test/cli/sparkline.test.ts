import t from 'tap';
import { sparkChart, sparkline } from '../../cli/dashboard/sparkline.js';

t.test('one row: eight levels scaled to the largest value, zero blank, left-padded', async (t) => {
  const rows: [number[], number, string][] = [
    [[1, 2, 3, 4, 5, 6, 7, 8], 8, '▁▂▃▄▅▆▇█'],
    [[0, 8, 0], 3, ' █ '],
    [[8, 4], 5, '   █▄'],
    [[100, 1], 2, '█▁'], // any traffic shows, however small
    [[], 4, '    '],
    [[0, 0], 2, '  '],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3, '▇██'], // the newest values, scaled to what is shown
  ];
  for (const [values, width, expected] of rows)
    t.equal(sparkline(values, width), expected, `${JSON.stringify(values)} in ${width}`);
});

t.test('a fixed maximum keeps the scale', async (t) => {
  t.equal(sparkline([4], 1, 8), '▄');
  t.equal(sparkline([16], 1, 8), '█', 'above the maximum is clamped');
});

t.test('a chart of h rows has 8·h levels, top row first', async (t) => {
  t.same(sparkChart([16, 8, 4, 0], 4, 2), ['█   ', '██▄ ']);
  t.same(sparkChart([1, 3], 2, 3), [' █', ' █', '██']);
  t.same(sparkChart([1, 2], 0, 2), ['', '']);
  for (const row of sparkChart([5, 9, 1, 7], 10, 4)) t.equal(Array.from(row).length, 10);
});
