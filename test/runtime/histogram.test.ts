import fc from 'fast-check';
import { Int32Histogram } from 'hdr-histogram-js';
import t from 'tap';
import {
  CachedHistogram,
  HIGHEST_US,
  addEncoded,
  addHistogram,
  clampMicros,
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  indexOfMicros,
  maxMs,
  meanMs,
  minMs,
  percentileMs,
  percentilesMs,
  recordMicros,
  summarizeEncoded,
  summarizeHistogram,
  type MicrosHistogram,
} from '../../runtime/metrics/histogram.js';

function histogramOf(values: readonly number[]): MicrosHistogram {
  const h = createHistogram();
  for (const v of values) recordMicros(h, v);
  return h;
}

function countsOf(h: MicrosHistogram): number[] {
  const counts: number[] = [];
  for (let i = 0; i < h.countsArrayLength; i++) counts.push(h.getCountAtIndex(i));
  return counts;
}

t.test('the index formula is the library countsArrayIndex', async (t) => {
  const h = createHistogram();
  const values = [
    1,
    2,
    1023,
    1024,
    1025,
    2047,
    2048,
    2049,
    4095,
    4096,
    65_535,
    1e6,
    2 ** 31,
    HIGHEST_US,
  ];
  for (let v = 1; v < 300_000; v = Math.ceil(v * 1.013) + 1) values.push(v, v + 1);
  for (const v of values) t.equal(indexOfMicros(v), h.countsArrayIndex(v), `index of ${v}`);
});

t.test('clampMicros keeps values in 1 … HIGHEST_US, whole microseconds', async (t) => {
  const cases: readonly (readonly [number, number])[] = [
    [0, 1],
    [-5, 1],
    [Number.NaN, 1],
    [0.4, 1],
    [1.4, 1],
    [1.6, 2],
    [1234.5, 1235],
    [HIGHEST_US, HIGHEST_US],
    [HIGHEST_US + 1, HIGHEST_US],
    [Number.POSITIVE_INFINITY, HIGHEST_US],
  ];
  for (const [input, expected] of cases) t.equal(clampMicros(input), expected, String(input));
});

t.test('empty histograms encode to "" and "" decodes to an empty one', async (t) => {
  t.equal(encodeHistogram(createHistogram()), '');
  const h = decodeHistogram('');
  t.equal(h.totalCount, 0);
  t.equal(summarizeHistogram(h), undefined);
  t.equal(summarizeEncoded(''), undefined);
});

t.test('summarizeEncoded gives each encoding its own summary, asked once or again', async (t) => {
  // Summaries are kept by encoding (at most 64): 100 encodings, read twice in turn.
  const encodings = Array.from({ length: 100 }, (_, i) =>
    encodeHistogram(histogramOf([1_000 * (i + 1)])),
  );
  const expected = encodings.map((e) => summarizeHistogram(decodeHistogram(e))!.max);
  for (const round of [1, 2])
    t.same(
      encodings.map((e) => summarizeEncoded(e)!.max),
      expected,
      `round ${round}`,
    );
});

t.test('encode and decode keep every count; the encoding is canonical', async (t) => {
  const h = histogramOf([1, 5, 5, 999, 2048, 2049, 123_456, 7_000_000, 1e10]);
  const encoded = encodeHistogram(h);
  const back = decodeHistogram(encoded);
  t.equal(back.totalCount, 9);
  t.strictSame(countsOf(back), countsOf(h));
  t.equal(encodeHistogram(back), encoded, 're-encoding gives the same string');
});

t.test('recorded values: exact below 2048 µs, within 0.1 % above', async (t) => {
  const h = histogramOf(Array.from({ length: 1000 }, (_, i) => i + 1));
  t.strictSame(summarizeHistogram(h), {
    min: 0.001,
    max: 1,
    mean: 0.5005,
    p50: 0.5,
    p90: 0.9,
    p95: 0.95,
    p99: 0.99,
  });
  const big = histogramOf([250_000]);
  t.ok(Math.abs(maxMs(big) - 250) <= 0.25, `max ${maxMs(big)} within 0.1 % of 250`);
  t.ok(Math.abs(minMs(big) - 250) <= 0.25, `min ${minMs(big)} within 0.1 % of 250`);
  t.ok(Math.abs(percentileMs(big, 99.9) - 250) <= 0.25);
});

t.test("meanMs is the library's mean, to the last bit", async (t) => {
  const micros = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 1e10 }));
  fc.assert(
    fc.property(fc.array(micros, { minLength: 1, maxLength: 200 }), (values) => {
      const h = histogramOf(values);
      return (
        meanMs(h) === h.mean / 1000 && meanMs(decodeHistogram(encodeHistogram(h))) === h.mean / 1000
      );
    }),
  );
  t.equal(meanMs(createHistogram()), 0);
});

t.test(
  "percentilesMs reads the library's getValueAtPercentile at every percentile, in one walk",
  async (t) => {
    const micros = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 1e10 }));
    const percentile = fc.oneof(
      fc.constantFrom(0, 50, 90, 95, 99, 99.9, 99.99, 100, 150),
      fc.double({ min: 0, max: 100, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(micros, { minLength: 0, maxLength: 300 }),
        fc.array(percentile, { minLength: 1, maxLength: 30 }),
        (values, percentiles) => {
          const h = histogramOf(values);
          const library = percentiles.map((p) => h.getValueAtPercentile(p) / 1000);
          return percentilesMs(h, percentiles).every((ms, i) => ms === library[i]);
        },
      ),
      { numRuns: 300 },
    );
    // A product one ulp over the whole count: 14 % of 50 values is 7.000000000000001, the 7th.
    const fifty = histogramOf(Array.from({ length: 50 }, (_, i) => 1_000 * (i + 1)));
    t.equal(percentilesMs(fifty, [14])[0], fifty.getValueAtPercentile(14) / 1000);
    t.ok(Math.abs(percentilesMs(fifty, [14])[0]! - 7) < 0.01, 'the 7th value, 7 ms');
  },
);

t.test('values above the range are clamped, not thrown', async (t) => {
  const h = histogramOf([1e12, HIGHEST_US * 2]);
  t.equal(h.totalCount, 2);
  t.ok(maxMs(h) >= HIGHEST_US / 1000 && maxMs(h) <= (HIGHEST_US / 1000) * 1.001);
});

t.test('min and max are the same live and decoded (bucket-based)', async (t) => {
  const h = histogramOf([3_333, 777_777]);
  const back = decodeHistogram(encodeHistogram(h));
  t.equal(minMs(back), minMs(h));
  t.equal(maxMs(back), maxMs(h));
  t.equal(meanMs(back), meanMs(h));
});

t.test('adding is exact, also from a histogram of another bucket size', async (t) => {
  const a = histogramOf([10, 20, 3000]);
  const b = histogramOf([20, 40_000]);
  const sum = createHistogram();
  addHistogram(sum, a);
  addHistogram(sum, b);
  addHistogram(sum, createHistogram());
  t.equal(sum.totalCount, 5);
  t.equal(encodeHistogram(sum), encodeHistogram(histogramOf([10, 20, 3000, 20, 40_000])));

  const narrow = new Int32Histogram(1, HIGHEST_US, 3);
  narrow.recordValue(20);
  narrow.recordValue(40_000);
  const mixed = histogramOf([10, 20, 3000]);
  addHistogram(mixed, narrow);
  t.equal(encodeHistogram(mixed), encodeHistogram(sum), 'same layout, counters added by index');
});

t.test('addEncoded sums encodings', async (t) => {
  const x = encodeHistogram(histogramOf([5, 6]));
  const y = encodeHistogram(histogramOf([7, 8_000]));
  t.equal(addEncoded([]), '');
  t.equal(addEncoded(['', '']), '');
  t.equal(addEncoded(['', x, '']), x, 'one non-empty input is returned as is');
  t.equal(addEncoded([x, '', y]), encodeHistogram(histogramOf([5, 6, 7, 8_000])));
  t.equal(addEncoded([x, y]), addEncoded([y, x]));
});

t.test('CachedHistogram re-encodes only after a record and resets to empty', async (t) => {
  const c = new CachedHistogram();
  t.equal(c.encode(), '');
  c.recordMicros(1500);
  const first = c.encode();
  t.equal(first, encodeHistogram(histogramOf([1500])));
  t.equal(c.encode(), first);
  const v = clampMicros(2500);
  c.record(indexOfMicros(v), v);
  t.equal(c.encode(), encodeHistogram(histogramOf([1500, 2500])));
  c.addEncoded(encodeHistogram(histogramOf([9])));
  c.addEncoded('');
  t.equal(c.encode(), encodeHistogram(histogramOf([1500, 2500, 9])));
  c.reset();
  t.equal(c.encode(), '');
  t.equal(c.histogram.totalCount, 0);
});
