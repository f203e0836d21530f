import t from 'tap';
import { pumpTimeout } from '../../runtime/script/sandbox.js';

t.test('pumps of one window share their deadline, never before the CPU limit', async (t) => {
  const cpuMs = 10_000;
  const starts = [1000.2, 1003.7, 1021.9, 1049.99];
  const deadlines = starts.map((now) => now + pumpTimeout(now, cpuMs));
  for (const [i, now] of starts.entries()) {
    t.ok(pumpTimeout(now, cpuMs) >= cpuMs, `the pump started at ${now} ms gets the whole limit`);
    t.ok(deadlines[i]! - deadlines[0]! < 1, `its deadline is the window's (${deadlines[i]})`);
  }
  const next = 1050.1 + pumpTimeout(1050.1, cpuMs);
  t.ok(next - deadlines[0]! >= 49, 'the next window has a later deadline');
  t.ok(next - 1050.1 <= cpuMs + 51, 'at most a window past the limit');
});

t.test('a short limit gets a window of a tenth of it', async (t) => {
  t.equal(pumpTimeout(0, 100), 110);
  t.equal(pumpTimeout(9.5, 100), 101);
  t.ok(pumpTimeout(3, 1) >= 1, 'a 1 ms limit still gets at least 1 ms');
});
