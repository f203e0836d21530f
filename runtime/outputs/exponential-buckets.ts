/**
 * A trend's HDR histogram as the exponential buckets of a Prometheus native histogram and of an
 * OpenTelemetry exponential histogram: at schema (scale) s, bucket i holds the values in
 * (base^(i−1), base^i] with base = 2^(2^−s) — Prometheus' numbering; OpenTelemetry's bucket of
 * the same values is numbered i − 1. Each HDR counter falls whole into the bucket of its highest
 * equivalent value (the value barrage's percentiles report), so a quantile read from the buckets
 * is within one bucket's width of barrage's own: 2^(2^−SCHEMA) − 1 = 2.2 % at schema 5.
 *
 * Schema 5 keeps at most 32 buckets per doubling, so a run's latencies spread over 1 ms … 1 s use
 * a few hundred at most, under the limits receivers apply (Mimir reduces anything above 160
 * buckets by merging neighbours, losing precision but no counts).
 */
import type { MicrosHistogram } from '../metrics/histogram.js';

/** The resolution sent: 32 buckets per doubling. */
export const SCHEMA = 5;

/** A histogram's samples in exponential buckets. */
export interface ExponentialBuckets {
  readonly schema: number;
  readonly count: number;
  /** Σ values (each HDR counter at its median equivalent value), in the target unit. */
  readonly sum: number;
  /** Samples equal to 0. */
  readonly zeroCount: number;
  /** The populated buckets, ascending by index (Prometheus' numbering). */
  readonly buckets: readonly { readonly index: number; readonly count: number }[];
}

/**
 * The exponential buckets of `histogram`, whose recorded values are `divisor` times the target
 * unit's (1e6 for µs → s; 1000 for a custom trend's own unit).
 */
export function exponentialBuckets(
  histogram: MicrosHistogram,
  divisor: number,
  schema = SCHEMA,
): ExponentialBuckets {
  const factor = 2 ** schema;
  const counts = new Map<number, number>();
  let zeroCount = 0;
  // Counter by counter (the library's iterators are default exports, which ESM and the bundle
  // import differently): a counter's values are one HDR bucket's.
  for (let i = 0; i < histogram.countsArrayLength; i++) {
    const count = histogram.getCountAtIndex(i);
    if (count === 0) continue;
    const value = histogram.highestEquivalentValue(histogram.valueFromIndex(i)) / divisor;
    if (value <= 0) {
      zeroCount += count;
      continue;
    }
    const index = Math.ceil(Math.log2(value) * factor);
    counts.set(index, (counts.get(index) ?? 0) + count);
  }
  return {
    schema,
    count: histogram.totalCount,
    sum: (histogram.mean * histogram.totalCount) / divisor,
    zeroCount,
    buckets: [...counts].sort(([a], [b]) => a - b).map(([index, count]) => ({ index, count })),
  };
}

/** The upper bound of bucket `index` (Prometheus' numbering). */
export function upperBound(index: number, schema = SCHEMA): number {
  return 2 ** (index / 2 ** schema);
}
