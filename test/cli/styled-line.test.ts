import t from 'tap';
import { cut, fit, fitLine, lineWidth, span, toAnsi } from '../../cli/dashboard/styled-line.js';

t.test('cut and fit count code points and mark a cut with …', async (t) => {
  t.equal(cut('abcdef', 4), 'abc…');
  t.equal(cut('abc', 4), 'abc');
  t.equal(cut('abc', 0), '');
  t.equal(cut('✓✓✓✓✓', 3), '✓✓…');
  t.equal(fit('ab', 4), 'ab  ');
  t.equal(fit('ab', 4, 'right'), '  ab');
  t.equal(fit('abcdef', 4, 'right'), 'abc…');
});

t.test('fitLine cuts across spans and keeps their styles', async (t) => {
  const line = [span('abc', 'red'), span('def'), span('ghi', 'bold')];
  t.same(fitLine(line, 9), line, 'fits: unchanged');
  t.same(fitLine(line, 5), [span('abc', 'red'), span('d…')]);
  t.same(fitLine(line, 3), [span('ab…', 'red')]);
  t.same(fitLine(line, 6), [span('abc', 'red'), span('de…')], 'cut at a span end still says so');
  t.equal(lineWidth(fitLine(line, 7)), 7);
});

t.test('toAnsi: SGR around styled spans; without color only attributes stay', async (t) => {
  const line = [span('ok', 'green'), span(' '), span('head', 'bold')];
  t.equal(toAnsi(line, true), '\u001b[32mok\u001b[0m \u001b[1mhead\u001b[0m');
  t.equal(toAnsi(line, false), 'ok \u001b[1mhead\u001b[0m');
});
