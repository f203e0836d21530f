/**
 * The HDR histograms of custom trends (`new Trend()`, a YAML trend fed by an extractor): a layout
 * of their own, since their values are the user's, not microseconds of a request. A value v ≥ 0 is
 * recorded as round(v × SCALE), so three decimals survive (an `isTime` trend's milliseconds are
 * kept to the µs, as barrage's own latencies), and the range 0 … 2^53 − 1 holds any value up to
 * MAX_TREND_VALUE (≈ 9 × 10^12) at 3 significant digits: 43 buckets × 1024 = 45,056 counters.
 *
 * Counters are 'packed' (histogram.ts measured it: ≈ 0.5 µs a value where Float64Array takes
 * 20 ns, but 0.6 KB for a few values where a Float64Array of this layout would take 352 KB).
 * Custom trends are recorded from a scenario's add() or an endpoint's extractor, each already
 * costing microseconds of script or parsing, far from the request hot path; and a metric may
 * hold 100 series per thread, which in Float64Arrays would be 35 MB a metric.
 */
import { decompress, doDecode } from 'hdr-histogram-js/dist/JsHistogram.encoding.js';
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';
import { constructorFromBucketSize } from 'hdr-histogram-js/dist/JsHistogramFactory.js';
import { MAX_TREND_VALUE } from '../../model/metrics/metric-registry.js';
import { layoutProblem, type HistogramLayout } from './histogram.js';
import type { EncodedHistogram } from './snapshot.js';

/** Recorded values are the user's values × SCALE (three decimals kept). */
export const SCALE = 1000;
/** The largest recordable count of the layout (MAX_TREND_VALUE × SCALE fits under it). */
const HIGHEST = Number.MAX_SAFE_INTEGER;
const DIGITS = 3;

/** A histogram of a custom trend (the library's plain-JS class, packed counters). */
export type TrendHistogram = JsHistogram;

/** Asserts that the library built its plain-JS histogram, not a WASM one. */
function asJs(histogram: unknown): TrendHistogram {
  if (!(histogram instanceof JsHistogram))
    throw new Error('hdr-histogram-js built a non-JS histogram');
  return histogram;
}

/** The library's class of packed counters (its modules, not its index: histogram.ts says why). */
const PackedHistogram = constructorFromBucketSize('packed');

/** An empty histogram of the custom layout. */
export function createTrendHistogram(): TrendHistogram {
  const histogram = asJs(new PackedHistogram(1, HIGHEST, DIGITS));
  histogram.autoResize = false;
  return histogram;
}

/** True when a trend may record `value`: a number from 0 to MAX_TREND_VALUE. */
export function isTrendValue(value: number): boolean {
  return value >= 0 && value <= MAX_TREND_VALUE;
}

/** Records a value that isTrendValue() accepted. */
export function recordTrend(histogram: TrendHistogram, value: number): void {
  histogram.recordValue(Math.round(value * SCALE));
}

/** Compressed base64; "" when empty. */
export function encodeTrend(histogram: TrendHistogram): EncodedHistogram {
  return histogram.totalCount === 0 ? '' : histogram.encodeIntoCompressedBase64();
}

/** The histogram of an encoding; "" gives an empty one. */
export function decodeTrend(encoded: EncodedHistogram): TrendHistogram {
  if (encoded === '') return createTrendHistogram();
  // What the library's decodeFromCompressedBase64 does for a plain-JS histogram.
  return asJs(doDecode(decompress(Buffer.from(encoded, 'base64')), 'packed', HIGHEST));
}

/** The sum of encodings, encoded (exact: one layout, counter by counter). */
export function addTrends(encodings: readonly EncodedHistogram[]): EncodedHistogram {
  const present = encodings.filter((e) => e !== '');
  if (present.length <= 1) return present[0] ?? '';
  const sum = decodeTrend(present[0]!);
  for (const encoded of present.slice(1)) sum.add(decodeTrend(encoded));
  return encodeTrend(sum);
}

/** A custom trend's figures in the user's unit. */
export interface TrendSummary {
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly avg: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
}

/** The value at percentile p (0 ≤ p ≤ 100), in the user's unit. */
export function trendPercentile(histogram: TrendHistogram, p: number): number {
  return histogram.getValueAtPercentile(p) / SCALE;
}

/** The mean in the user's unit. */
export function trendMean(histogram: TrendHistogram): number {
  return histogram.mean / SCALE;
}

/** A trend's figures; undefined when it holds no value. */
export function summarizeTrend(encoded: EncodedHistogram): TrendSummary | undefined {
  if (encoded === '') return undefined;
  const h = decodeTrend(encoded);
  return {
    count: h.totalCount,
    min: trendPercentile(h, 0),
    max: trendPercentile(h, 100),
    avg: trendMean(h),
    p50: trendPercentile(h, 50),
    p90: trendPercentile(h, 90),
    p95: trendPercentile(h, 95),
    p99: trendPercentile(h, 99),
  };
}

const TREND_LAYOUT: HistogramLayout = {
  digits: DIGITS,
  lowest: 1,
  highest: HIGHEST,
  counters: createTrendHistogram().countsArrayLength,
  shown: `custom trends: 0 … 2^53 − 1, ${DIGITS} digits`,
  totalCount: (encoded) => decodeTrend(encoded).totalCount,
};

/** Why an encoding read from a file is not a custom trend's histogram; undefined when it is. */
export function trendEncodingProblem(encoded: string): string | undefined {
  return layoutProblem(encoded, TREND_LAYOUT);
}
