import t from 'tap';
import { gauge } from '../../cli/dashboard/gauge.js';

t.test('fills in eighths of a cell and always spans the width', async (t) => {
  const rows: [number, number, string, string][] = [
    [0, 4, '', '░░░░'],
    [1, 4, '████', ''],
    [0.5, 4, '██', '░░'],
    [1 / 32, 4, '▏', '░░░'],
    [0.3, 10, '███', '░░░░░░░'],
    [0.35, 10, '███▌', '░░░░░░'],
    [2, 3, '███', ''],
    [-1, 3, '', '░░░'],
    [Number.NaN, 3, '', '░░░'],
    [0.5, 0, '', ''],
  ];
  for (const [fraction, width, fill, rest] of rows) {
    const cells = gauge(fraction, width);
    t.same(cells, { fill, rest }, `${fraction} in ${width}`);
    t.equal(Array.from(cells.fill + cells.rest).length, Math.max(0, width));
  }
});
