/**
 * The latency distribution as a percentile curve (HdrHistogram's "percentile distribution"):
 * the merged histogram read at a fixed set of percentiles, so that reports can draw the curve
 * without the histogram itself. The set is dense in the tail, where latency problems live:
 * ten-point steps up to 70, then closer and closer steps towards 100 (the nines: 99, 99.9, 99.99,
 * 99.999). Percentile 0 is the minimum and 100 the maximum (bucket-based, as in histogram.ts).
 * Each point is the highest value equivalent to that percentile, within the histogram's 0.1 %.
 */
import type { PercentilePoint } from './run-result.js';
import { percentilesMs, type MicrosHistogram } from './histogram.js';

/** The percentiles read, in increasing order. */
export const DISTRIBUTION_PERCENTILES: readonly number[] = [
  0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96, 97, 97.5, 98, 98.5, 99, 99.25, 99.5,
  99.75, 99.9, 99.95, 99.99, 99.995, 99.999, 100,
];

/** The histogram at every DISTRIBUTION_PERCENTILES entry, in ms; empty for an empty histogram. */
export function latencyDistribution(histogram: MicrosHistogram): PercentilePoint[] {
  if (histogram.totalCount === 0) return [];
  const values = percentilesMs(histogram, DISTRIBUTION_PERCENTILES);
  return DISTRIBUTION_PERCENTILES.map((percentile, i) => ({ percentile, ms: values[i]! }));
}
