// The bound of the HTTP debug log's lines: at most N a window of one second, the window opening
// with the first line taken after the last one's second is over (as console lines are bounded).
import t from 'tap';
import { PerSecondBound } from '../../runtime/debug/per-second-bound.js';

t.test('at most n a second', async (t) => {
  const cases: [string, number, number[], boolean[]][] = [
    ['within one second', 2, [0, 10, 20, 999], [true, true, false, false]],
    ['a new window after a second', 2, [0, 1, 1000, 1001, 1002], [true, true, true, true, false]],
    ['a window opens at its first line', 1, [500, 1400, 1500], [true, false, true]],
  ];
  for (const [name, perSecond, times, expected] of cases) {
    const bound = new PerSecondBound(perSecond);
    t.same(
      times.map((ms) => bound.take(ms)),
      expected,
      name,
    );
  }
});
