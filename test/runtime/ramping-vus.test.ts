// The ramping-vus target and its integer crossings (runtime/executor/ramping-vus-executor.ts):
// the active count changes exactly where the linear target crosses an integer, up and down.
import t from 'tap';
import { crossing } from '../../runtime/executor/ramping-vus-executor.js';

const STAGES = [
  { durationMs: 1000, target: 4 },
  { durationMs: 1000, target: 4 },
  { durationMs: 500, target: 0 },
];

t.test('rising: the target and the next integer crossing', async (t) => {
  t.same(crossing(0, STAGES, 0), { target: 0, nextMs: 250, over: false });
  t.same(crossing(0, STAGES, 300), { target: 1.2, nextMs: 500, over: false });
  t.same(crossing(0, STAGES, 999), { target: 3.996, nextMs: 1000, over: false });
});

t.test('holding: no crossing before the stage ends', async (t) => {
  t.same(crossing(0, STAGES, 1500), { target: 4, nextMs: 2000, over: false });
});

t.test('falling: crossings where the target drops below each integer', async (t) => {
  const at = crossing(0, STAGES, 2100);
  t.ok(Math.abs(at.target - 3.2) < 1e-9);
  t.equal(at.nextMs, 2125, 'it reaches 3 at 2.125 s, and falls below it just after');
  const exact = crossing(0, STAGES, 2125);
  t.equal(exact.target, 3, 'at exactly 3');
  t.equal(exact.nextMs, 2250, 'the next crossing: 2 at 2.25 s');
});

t.test('the stages over: the scenario ends', async (t) => {
  t.same(crossing(0, STAGES, 2500), { target: 0, nextMs: Infinity, over: true });
  t.same(crossing(2, [], 0), { target: 2, nextMs: Infinity, over: true });
});
