// formatCount groups whole counts without ICU (report-figures.ts): the same text as en-US.
import t from 'tap';
import { formatCount } from '../../cli/render/report-figures.js';

t.test('formatCount writes what Intl.NumberFormat en-US writes', (t) => {
  const intl = new Intl.NumberFormat('en-US');
  const values = [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, -1, -1234, 2 ** 53 - 1, 1.5, 1e21];
  for (const value of values) t.equal(formatCount(value), intl.format(value), String(value));
  t.end();
});
