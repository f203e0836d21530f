/**
 * Custom metrics in a snapshot (docs/configuration.md, Custom metrics): per metric, one series per
 * distinct tag set its samples carried. Every series holds the same fields whatever the kind, so a
 * merge is one rule per field (sums, the least, the most, the latest, an HDR add):
 *   counter  sum = Σ values added                    (count and rate/s read it)
 *   rate     trues / samples                         (non-zero values are true)
 *   gauge    last (set at lastAt, epoch ms), min, max
 *   trend    histogram (custom-histogram.ts), min and max as recorded
 * A thread keeps at most MAX_SERIES tag sets a metric; later ones are counted in the series
 * tagged OTHER_SERIES_TAGS, and `folded` counts the samples that went there.
 */
import type { MetricKind, Tags } from '../../model/metrics/metric-registry.js';
import type { EncodedHistogram } from './snapshot.js';

/** Distinct tag sets a metric keeps apart, per thread (and per scenario). */
export const MAX_SERIES = 100;

/** The tags of the series that holds a metric's samples past MAX_SERIES tag sets. */
export const OTHER_SERIES_TAGS: Tags = Object.freeze({ other: 'true' });

/** One tag set's samples of a custom metric. */
export interface CustomSeriesSnapshot {
  readonly tags: Tags;
  /** Samples added. */
  readonly samples: number;
  /** Σ values (counters; kept for every kind). */
  readonly sum: number;
  /** Samples that were true (rates). */
  readonly trues: number;
  /** The last value set (gauges) and when, epoch ms: a merge keeps the latest. */
  readonly last: number;
  readonly lastAt: number;
  readonly min: number;
  readonly max: number;
  /** Trend values (custom-histogram.ts layout); "" for other kinds. */
  readonly histogram: EncodedHistogram;
}

/** One custom metric's series, ordered by their canonical tag key (seriesKey). */
export interface CustomMetricSnapshot {
  readonly kind: MetricKind;
  readonly series: readonly CustomSeriesSnapshot[];
  /** Samples counted in the OTHER_SERIES_TAGS series because MAX_SERIES tag sets were taken. */
  readonly folded: number;
  /** Values that were not samples: an extractor's text that is not a number, a trend below 0. */
  readonly rejected: number;
}

/** Custom metrics by name. */
export type CustomSnapshot = Readonly<Record<string, CustomMetricSnapshot>>;

/** The canonical key of a tag set: its entries sorted by key, as JSON text. */
export function seriesKey(tags: Tags): string {
  return JSON.stringify(Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
