/**
 * HDR histograms of microseconds: a thin layer over hdr-histogram-js (v3, plain JS, no WASM).
 * Range 1 µs … 3_600_000_000 µs (1 h) at 3 significant digits: 22 buckets × 1024 half-sub-buckets
 * = 23_552 counters. Values above the range are clamped to it, values below 1 (and NaN) count as 1.
 *
 * Bucket size, measured on Node 20 (`npx tsx bench/metrics.bench.ts widths 32|64|packed`,
 * lognormal latencies around 5 ms; one width per process, 2 shared cores, so ± 30 %):
 *   library recordValue():                     32 → 95 ns, 64 → 100 ns, 'packed' → 520 ns a value
 *   clamp + index here (clz32) + increment:    32 → 20 ns, 64 →  20 ns, 'packed' → 445 ns a value
 *   memory: 32 → 95 KB, 64 → 189 KB, 'packed' → 0.6 KB (10 values) … 23–41 KB (10k+ values)
 *   compressed base64 of a second: 0.1 KB (10 values), 0.3 (100), 1 (1k), 3 (10k), 6 (100k)
 * We take 64 (Float64Array counters): the same speed as 32, exact counts up to 2^53 where a
 * Uint32Array counter wraps silently past 2^32 (TypedArrayHistogram only checks against
 * MAX_SAFE_INTEGER, never against the array's own width). Memory is spent only on the few live
 * histograms of a shard; finished per-second buckets are kept encoded (0.1–6 KB each).
 *
 * What hdr-histogram-js does that matters here (read in its dist/ sources):
 * - `add(other)` copies counts index by index when both have the same bucketCount, subBucketCount
 *   and unitMagnitude — which depend only on (lowest, highest, digits), NOT on the bit bucket size —
 *   so histograms of different bucket sizes merge exactly; the target's counter width is what can
 *   overflow (silently for 8/16/32-bit arrays). Other layouts fall back to adding value by value.
 *   `add` throws when the other's max does not fit and autoResize is off (ours is off: we clamp).
 * - `decodeFromCompressedBase64(s, bitBucketSize = 32, …)`: the encoding carries lowest, highest and
 *   digits but not the counter width, so the caller must pass it or gets 32-bit counters. The decoded
 *   min/max are recomputed from the counts (lowest/highest equivalent values of the first/last
 *   non-empty counter), so exact min/max seen while recording are not kept across encoding. We
 *   therefore read min and max as percentile 0 and 100 (bucket-based) on every path, live or decoded.
 * - The V2 encoding writes counters up to the index of the max value; it is canonical: equal counts
 *   give equal strings, which lets tests compare encodings directly.
 * - `mean` uses each counter's median equivalent value, so it is within the 0.1 % resolution.
 */
// The library's own modules, not its index (the package has no `exports` map, so deep imports are
// allowed): the index loads all of it at every start, ~20 ms here. HistogramLogWriter builds an
// Intl.NumberFormat at load, the WASM histogram decodes a base64 module, encoding.js requires
// that WASM module too. We need the plain-JS histogram of 64-bit counters and its V2 compressed
// encoding (JsHistogram.encoding.js adds encodeIntoCompressedBase64 to JsHistogram, inflates
// with node's zlib).
import { decompress, doDecode } from 'hdr-histogram-js/dist/JsHistogram.encoding.js';
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';
import { constructorFromBucketSize } from 'hdr-histogram-js/dist/JsHistogramFactory.js';
import { inflateSync } from 'node:zlib';
import type { LatencySummary } from './run-result.js';
import type { EncodedHistogram } from './snapshot.js';

/** A histogram of microseconds (the library's plain-JS class). */
export type MicrosHistogram = JsHistogram;

/** Lowest value told apart, µs. */
export const LOWEST_US = 1;
/** Highest value tracked, µs (one hour); larger values are clamped to it. */
export const HIGHEST_US = 3_600_000_000;
/** Significant digits kept: values are within 0.1 % of what was recorded. */
export const SIGNIFICANT_DIGITS = 3;
/** Counter width: 64-bit floats (exact to 2^53), as fast as 32-bit (see the measures above). */
export const BIT_BUCKET_SIZE = 64;

/** Asserts that the library built its plain-JS histogram, not a WASM one. */
function asJs(histogram: unknown): MicrosHistogram {
  if (!(histogram instanceof JsHistogram))
    throw new Error('hdr-histogram-js built a non-JS histogram');
  return histogram;
}

/** The library's class of 64-bit counters (what its `build()` picks for bitBucketSize 64). */
const Float64Histogram = constructorFromBucketSize(BIT_BUCKET_SIZE);

/** An empty histogram of microseconds. */
export function createHistogram(): MicrosHistogram {
  const histogram = asJs(new Float64Histogram(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS));
  histogram.autoResize = false;
  return histogram;
}

// The counter index of the library, computed without Math.log2/pow (≈ 10× faster):
//   bucket = max(floor(log2 v) − subBucketHalfCountMagnitude − unitMagnitude, 0)
//   sub    = floor(v / 2^(bucket + unitMagnitude))
//   index  = (bucket + 1) · subBucketHalfCount + sub − subBucketHalfCount
// floor(log2 v) = 31 − clz32(v) and v >>> k = floor(v / 2^k) hold because v < 2^32 (HIGHEST_US).
const LAYOUT = createHistogram();
const HALF_MAGNITUDE = LAYOUT.subBucketHalfCountMagnitude;
const UNIT_MAGNITUDE = LAYOUT.unitMagnitude;
const HALF_COUNT = LAYOUT.subBucketHalfCount;
if (LAYOUT.countsArrayIndex(HIGHEST_US) !== indexOfMicros(HIGHEST_US)) {
  throw new Error('histogram index formula disagrees with hdr-histogram-js');
}

/** A recordable value: integer µs in [LOWEST_US, HIGHEST_US] (NaN and values < 1 become 1). */
export function clampMicros(us: number): number {
  if (!(us >= LOWEST_US)) return LOWEST_US;
  if (us >= HIGHEST_US) return HIGHEST_US;
  return Math.round(us);
}

/** The counter index of a clamped value (same as the library's countsArrayIndex). */
export function indexOfMicros(value: number): number {
  const bucket = Math.max(31 - Math.clz32(value) - HALF_MAGNITUDE - UNIT_MAGNITUDE, 0);
  return bucket * HALF_COUNT + (value >>> (bucket + UNIT_MAGNITUDE));
}

/** Records a clamped value at its precomputed index (one index serves several histograms). */
export function recordAt(histogram: MicrosHistogram, index: number, value: number): void {
  histogram.incrementCountAtIndex(index);
  histogram.incrementTotalCount();
  histogram.updateMinAndMax(value);
}

/** Records a duration in µs, clamped to the histogram's range. */
export function recordMicros(histogram: MicrosHistogram, us: number): void {
  const value = clampMicros(us);
  recordAt(histogram, indexOfMicros(value), value);
}

/** Compressed base64 of the histogram; "" when it is empty. */
export function encodeHistogram(histogram: MicrosHistogram): EncodedHistogram {
  return histogram.totalCount === 0 ? '' : histogram.encodeIntoCompressedBase64();
}

/** The histogram an encoding holds; "" gives an empty one. */
export function decodeHistogram(encoded: EncodedHistogram): MicrosHistogram {
  if (encoded === '') return createHistogram();
  // What the library's decodeFromCompressedBase64 does for a plain-JS histogram.
  return asJs(doDecode(decompress(Buffer.from(encoded, 'base64')), BIT_BUCKET_SIZE, HIGHEST_US));
}

/** Adds every count of `from` into `into` (exact: same layout, index by index). */
export function addHistogram(into: MicrosHistogram, from: MicrosHistogram): void {
  if (from.totalCount > 0) into.add(from);
}

/** The sum of several encodings, encoded; a single non-empty input is returned as is. */
export function addEncoded(encodings: readonly EncodedHistogram[]): EncodedHistogram {
  let first: EncodedHistogram = '';
  let sum: MicrosHistogram | undefined;
  for (const encoded of encodings) {
    if (encoded === '') continue;
    if (first === '') {
      first = encoded;
      continue;
    }
    sum ??= decodeHistogram(first);
    addHistogram(sum, decodeHistogram(encoded));
  }
  return sum === undefined ? first : encodeHistogram(sum);
}

/** The value at percentile p (0 < p <= 100) in ms: the highest value equivalent to it. */
export function percentileMs(histogram: MicrosHistogram, p: number): number {
  return histogram.getValueAtPercentile(p) / 1000;
}

/** The smallest value in ms: the lowest value equivalent to the first non-empty counter. */
export function minMs(histogram: MicrosHistogram): number {
  // Percentile 0, not minNonZeroValue: the same whether recorded here or decoded (notes above).
  return histogram.getValueAtPercentile(0) / 1000;
}

/** The largest value in ms: the highest value equivalent to the last non-empty counter. */
export function maxMs(histogram: MicrosHistogram): number {
  return histogram.getValueAtPercentile(100) / 1000;
}

/**
 * The mean in ms: Σ count · median equivalent value / total count, summed over the counters in
 * index order as the library's `mean` getter does (the same float), without its iterator: that
 * builds an iteration value at every counter up to the max, cold code at the end of a run that
 * cost a one-request run's report about 10 ms.
 */
export function meanMs(histogram: MicrosHistogram): number {
  const total = histogram.totalCount;
  if (total === 0) return 0;
  let sum = 0;
  let seen = 0;
  for (let i = 0; seen < total && i < histogram.countsArrayLength; i++) {
    const count = histogram.getCountAtIndex(i);
    if (count === 0) continue;
    sum += histogram.medianEquivalentValue(histogram.valueFromIndex(i)) * count;
    seen += count;
  }
  return sum / total / 1000;
}

/**
 * The values at several percentiles in ms, each what getValueAtPercentile gives (its rounding of
 * the count, the lowest equivalent value at percentile 0 and the highest at any other), read in
 * one walk over the counters: the library walks from the first counter for every percentile, and a
 * report reads dozens (the distribution's 29 points, a summary's six) in cold code at the end of a
 * run, which cost a one-request run's report about 10 ms.
 */
export function percentilesMs(
  histogram: MicrosHistogram,
  percentiles: readonly number[],
): number[] {
  const total = histogram.totalCount;
  const wanted = percentiles
    .map((percentile, at) => ({ percentile, at, count: countAtPercentile(percentile, total) }))
    .sort((a, b) => a.count - b.count);
  const values = percentiles.map(() => 0);
  let next = 0;
  let seen = 0;
  for (let i = 0; next < wanted.length && i < histogram.countsArrayLength; i++) {
    seen += histogram.getCountAtIndex(i);
    for (; next < wanted.length && seen >= wanted[next]!.count; next++) {
      const { percentile, at } = wanted[next]!;
      const value = histogram.valueFromIndex(i);
      values[at] =
        (percentile === 0
          ? histogram.lowestEquivalentValue(value)
          : histogram.highestEquivalentValue(value)) / 1000;
    }
  }
  return values;
}

/**
 * The count a percentile reaches, as getValueAtPercentile rounds it: up, less one unit in the last
 * place of the product (whose float may be one ulp over the whole count), and at least 1.
 */
function countAtPercentile(percentile: number, total: number): number {
  const fpCount = (Math.min(percentile, 100) / 100) * total;
  return Math.max(Math.ceil(fpCount - 2 ** (Math.floor(Math.log2(fpCount)) - 52)), 1);
}

/** The percentiles of a summary, in LatencySummary's order: min, p50, p90, p95, p99, max. */
const SUMMARY_PERCENTILES = [0, 50, 90, 95, 99, 100];

/** Min, max, mean and the usual percentiles in ms; undefined when the histogram is empty. */
export function summarizeHistogram(histogram: MicrosHistogram): LatencySummary | undefined {
  if (histogram.totalCount === 0) return undefined;
  const [min, p50, p90, p95, p99, max] = percentilesMs(histogram, SUMMARY_PERCENTILES);
  return {
    min: min!,
    max: max!,
    mean: meanMs(histogram),
    p50: p50!,
    p90: p90!,
    p95: p95!,
    p99: p99!,
  };
}

/**
 * The last summaries of encodings, by encoding: a report summarizes the same counts under several
 * names (a one-endpoint run's endpoint and its total, the waiting time of both), and each decode
 * and walk is cold code at the end of a run. Bounded: cleared when full.
 */
const summaries = new Map<EncodedHistogram, LatencySummary | undefined>();
const MAX_SUMMARIES = 64;

/** summarizeHistogram() of an encoding. */
export function summarizeEncoded(encoded: EncodedHistogram): LatencySummary | undefined {
  if (encoded === '') return undefined;
  if (summaries.has(encoded)) return summaries.get(encoded);
  if (summaries.size >= MAX_SUMMARIES) summaries.clear();
  const summary = summarizeHistogram(decodeHistogram(encoded));
  summaries.set(encoded, summary);
  return summary;
}

/** A live histogram whose encoding is cached until the next record (snapshots every 500 ms). */
export class CachedHistogram {
  /** The counts; record through this class so that the cached encoding stays true. */
  readonly histogram: MicrosHistogram = createHistogram();
  #encoded: EncodedHistogram = '';
  #dirty = false;

  /** Records a clamped value at its precomputed index. */
  record(index: number, value: number): void {
    recordAt(this.histogram, index, value);
    this.#dirty = true;
  }

  /** Records a duration in µs, clamped. */
  recordMicros(us: number): void {
    recordMicros(this.histogram, us);
    this.#dirty = true;
  }

  /** Adds the counts of an encoding (reopening a sealed bucket: rare, allocates). */
  addEncoded(encoded: EncodedHistogram): void {
    if (encoded === '') return;
    addHistogram(this.histogram, decodeHistogram(encoded));
    this.#dirty = true;
  }

  /** The encoding of the counts so far, computed only when something was recorded since. */
  encode(): EncodedHistogram {
    if (this.#dirty) {
      this.#encoded = encodeHistogram(this.histogram);
      this.#dirty = false;
    }
    return this.#encoded;
  }

  /** Empties it for reuse. */
  reset(): void {
    this.histogram.reset();
    this.#encoded = '';
    this.#dirty = false;
  }
}

/** Cookie of the compressed V2 encoding, and of the V2 encoding inside it (word-size bits masked). */
const COMPRESSED_COOKIE = 0x1c849304;
const V2_COOKIE = 0x1c849303;
/** What an encoding must be to be read as a histogram of one layout. */
export interface HistogramLayout {
  readonly digits: number;
  readonly lowest: number;
  readonly highest: number;
  /** Counters of the layout: its encoding is at most 9 bytes a counter after a 40-byte header. */
  readonly counters: number;
  /** How users know it, e.g. "1 µs … 1 h, 3 digits". */
  readonly shown: string;
  /** Its total count once decoded (throws when it does not decode). */
  readonly totalCount: (encoded: string) => number;
}

/** barrage's latency layout. */
const MICROS_LAYOUT: HistogramLayout = {
  digits: SIGNIFICANT_DIGITS,
  lowest: LOWEST_US,
  highest: HIGHEST_US,
  counters: LAYOUT.countsArrayLength,
  shown: `${LOWEST_US} µs … 1 h, ${SIGNIFICANT_DIGITS} digits`,
  totalCount: (encoded) => decodeHistogram(encoded).totalCount,
};

/**
 * Why an encoding read from a file (`barrage merge`) is not a histogram of our layout, or undefined
 * when it is one. The library would inflate any size (a few KB of deflate can claim gigabytes) and
 * build a histogram of whatever range the header names, so before it decodes anything: base64 of
 * bounded length, the compressed V2 cookie, an inflate capped at our layout's largest encoding,
 * then the header's digits, lowest and highest values must be ours.
 */
export function encodedProblem(encoded: string): string | undefined {
  return layoutProblem(encoded, MICROS_LAYOUT);
}

/** encodedProblem() for any layout (custom trends have one of their own). */
export function layoutProblem(encoded: string, layout: HistogramLayout): string | undefined {
  if (encoded === '') return undefined;
  const maxInflated = 40 + 9 * layout.counters;
  // Its compressed base64 is smaller than the inflated size (deflate never grows it much).
  if (encoded.length > 2 * maxInflated)
    return `an encoding of ${encoded.length} characters, more than a histogram takes`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return 'not base64';
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== COMPRESSED_COOKIE)
    return 'not a compressed HDR histogram';
  const length = bytes.readInt32BE(4);
  if (length <= 0 || 8 + length > bytes.length) return 'a truncated histogram';
  let plain: Buffer;
  try {
    plain = inflateSync(bytes.subarray(8, 8 + length), { maxOutputLength: maxInflated });
  } catch {
    return 'a histogram that does not inflate, or inflates larger than one can be';
  }
  if (
    plain.length < 40 ||
    (plain.readInt32BE(0) & ~0xf0) !== V2_COOKIE ||
    plain.readInt32BE(12) !== layout.digits ||
    plain.readBigInt64BE(16) !== BigInt(layout.lowest) ||
    plain.readBigInt64BE(24) !== BigInt(layout.highest)
  )
    return `not a histogram of barrage's layout (${layout.shown})`;
  try {
    const total = layout.totalCount(encoded);
    if (!Number.isSafeInteger(total) || total <= 0)
      return 'a histogram whose counts are not positive integers';
  } catch {
    return 'a histogram that does not decode';
  }
  return undefined;
}
