import t from 'tap';
import { Pacer } from '../../runtime/schedule/pacer.js';

t.test('a constant rate spaces permits exactly, from the schedule', async (t) => {
  const pacer = new Pacer(1000);
  t.equal(pacer.intendedTime(0), 0);
  t.equal(pacer.intendedTime(1), 1000);
  t.equal(pacer.intendedTime(2500), 2_500_000);
  t.equal(pacer.expected(1_000_000), 1000);
});

t.test('a phase staggers a segment within its own permit period', async (t) => {
  const pacer = new Pacer(100, 0.25);
  t.equal(pacer.intendedTime(0), 2500, 'a quarter of the 10 ms period');
  t.equal(pacer.intendedTime(1), 12_500);
});

t.test('changing the rate keeps the permits already due (integral of the rate)', async (t) => {
  const pacer = new Pacer(1000);
  pacer.setRate(2000, 1_000_000);
  t.equal(pacer.expected(1_000_000), 1000, 'no permit lost or invented at the change');
  t.equal(pacer.expected(2_000_000), 3000, '1000 at 1000/s then 2000 at 2000/s');
  t.equal(pacer.intendedTime(1000), 1_000_000);
  t.equal(pacer.intendedTime(1001), 1_000_500);
});

t.test('rate 0 pauses: no permit is due until the rate changes', async (t) => {
  const pacer = new Pacer(0);
  t.equal(pacer.intendedTime(0), Infinity);
  pacer.setRate(10, 5_000_000);
  t.equal(pacer.intendedTime(0), 5_000_000);
  t.equal(pacer.intendedTime(1), 5_100_000);
});

t.test('many reconfigurations sum to the integral, whatever the steps', async (t) => {
  const pacer = new Pacer(0);
  let expected = 0;
  for (let step = 0; step < 100; step++) {
    const rate = (step * 37) % 500;
    pacer.setRate(rate, step * 100_000);
    expected += (rate * 100_000) / 1e6;
  }
  t.ok(Math.abs(pacer.expected(10_000_000) - expected) < 1e-6);
});

t.test('a schedule of N permits has no permit N, whatever the floating point says', async (t) => {
  const pacer = new Pacer(20, 0, 60);
  t.ok(pacer.intendedTime(59) < 3_000_000);
  t.equal(pacer.intendedTime(60), Infinity, '60 / 20 per s would come out just under 3 s');
});
