// The latency distribution: the histogram read at fixed percentiles, increasing, min and max at the
// ends, exact where HDR is exact (below 2048 µs every microsecond has its own counter).
import t from 'tap';
import { createHistogram, recordMicros } from '../../runtime/metrics/histogram.js';
import {
  DISTRIBUTION_PERCENTILES,
  latencyDistribution,
} from '../../runtime/metrics/latency-distribution.js';

t.test('the percentile set: increasing, from 0 to 100, dense in the tail', async (t) => {
  t.equal(DISTRIBUTION_PERCENTILES[0], 0);
  t.equal(DISTRIBUTION_PERCENTILES.at(-1), 100);
  for (let i = 1; i < DISTRIBUTION_PERCENTILES.length; i++)
    t.ok(DISTRIBUTION_PERCENTILES[i]! > DISTRIBUTION_PERCENTILES[i - 1]!, `increasing at ${i}`);
  for (const nines of [99, 99.9, 99.99, 99.999])
    t.ok(DISTRIBUTION_PERCENTILES.includes(nines), `${nines} is read`);
});

t.test('an empty histogram has no distribution', async (t) => {
  t.strictSame(latencyDistribution(createHistogram()), []);
});

t.test('1…1000 µs: each percentile is its value, min and max at the ends', async (t) => {
  const histogram = createHistogram();
  for (let us = 1; us <= 1000; us++) recordMicros(histogram, us);
  const points = latencyDistribution(histogram);
  t.strictSame(
    points.map((p) => p.percentile),
    DISTRIBUTION_PERCENTILES,
  );
  const at = (p: number): number | undefined => points.find((x) => x.percentile === p)?.ms;
  t.equal(at(0), 0.001, 'min');
  t.equal(at(50), 0.5);
  t.equal(at(90), 0.9);
  t.equal(at(99.9), 0.999);
  t.equal(at(100), 1, 'max');
  for (let i = 1; i < points.length; i++)
    t.ok(points[i]!.ms >= points[i - 1]!.ms, `non-decreasing at ${points[i]!.percentile}`);
});

t.test('a long tail shows in the last nines only', async (t) => {
  const histogram = createHistogram();
  for (let i = 0; i < 9_999; i++) recordMicros(histogram, 1_000);
  recordMicros(histogram, 500_000);
  const points = latencyDistribution(histogram);
  const at = (p: number): number | undefined => points.find((x) => x.percentile === p)?.ms;
  t.equal(at(99.99), 1, 'one slow request in 10 000 is above p99.99');
  t.ok(Math.abs(at(99.995)! - 500) <= 0.5, 'and at p99.995 within 0.1 %');
  t.ok(Math.abs(at(100)! - 500) <= 0.5);
});
