/**
 * A flush as Prometheus time series (docs/outputs.md, Prometheus remote write): every figure since
 * the run began, stamped with the flush's time, in the shapes of prompb's WriteRequest (the
 * objects protobufjs' fromObject takes, field names in camelCase).
 *
 *   counter        barrage_<m>_total (unit bytes: barrage_<m>_bytes_total)
 *   rate           barrage_<m>_total (true samples), barrage_<m>_samples_total (all samples)
 *   gauge          barrage_<m>
 *   trend native   barrage_<m>_seconds, a native histogram (schema 5, exponential-buckets.ts)
 *   trend stats    a summary: barrage_<m>_seconds{quantile="0"|"0.5"|"0.9"|"0.95"|"0.99"|"1"},
 *                  barrage_<m>_seconds_sum, barrage_<m>_seconds_count
 *
 * Trends of unit ms are sent in seconds; other trends keep their unit and have no `_seconds`. The
 * stats are Prometheus' summary convention, the one way its tools read precomputed quantiles:
 * quantile 0 is the minimum, 1 the maximum, and the mean is _sum / _count.
 *
 * Labels: `__name__`, then every tag with its name sanitized to [a-zA-Z_][a-zA-Z0-9_]* (other
 * characters become `_`, a leading digit gets a `_` before it), sorted by name as remote write
 * requires. Tags with an empty value are left out (Prometheus reads an empty label as none); of
 * two tags whose names sanitize alike, the one already valid wins, else the first by name.
 */
import type { MetricUnit, Tags } from '../../model/metrics/metric-registry.js';
import type { TrendAs } from '../../model/plan/output-plan.js';
import { summarizeHistogram } from '../metrics/histogram.js';
import { exponentialBuckets } from './exponential-buckets.js';
import type { Point } from './flush-window.js';
import { TREND_SCALE } from './metric-series.js';

/** prompb.Label. */
export interface PromLabel {
  readonly name: string;
  readonly value: string;
}

/** prompb.Histogram of integer counts: positive buckets as spans and deltas. */
export interface PromHistogram {
  readonly countInt: number;
  readonly sum: number;
  readonly schema: number;
  readonly zeroThreshold: number;
  readonly zeroCountInt: number;
  readonly positiveSpans: readonly { readonly offset: number; readonly length: number }[];
  readonly positiveDeltas: readonly number[];
  readonly timestamp: number;
}

/** prompb.TimeSeries with one sample or one histogram. */
export interface PromSeries {
  readonly labels: readonly PromLabel[];
  readonly samples: readonly { readonly value: number; readonly timestamp: number }[];
  readonly histograms: readonly PromHistogram[];
}

/** prompb.MetricMetadata.MetricType's values barrage sends. */
export const METRIC_TYPE = { COUNTER: 1, GAUGE: 2, HISTOGRAM: 3, SUMMARY: 5 } as const;

/** prompb.MetricMetadata: a metric family's type, help and unit. */
export interface PromMetadata {
  readonly type: (typeof METRIC_TYPE)[keyof typeof METRIC_TYPE];
  readonly metricFamilyName: string;
  readonly help: string;
  readonly unit: string;
}

/** The quantiles of a trend sent as a summary, with the figure of barrage's summary each is. */
const QUANTILES = [
  ['0', 'min'],
  ['0.5', 'p50'],
  ['0.9', 'p90'],
  ['0.95', 'p95'],
  ['0.99', 'p99'],
  ['1', 'max'],
] as const;

/** A flush's series and the metadata of their families. */
export interface PromFlush {
  readonly series: PromSeries[];
  readonly metadata: PromMetadata[];
}

/** The series of every point of a flush at `timeMs`. */
export function prometheusSeries(
  points: readonly Point[],
  timeMs: number,
  trendAs: TrendAs,
): PromFlush {
  const out = new FlushBuilder(timeMs);
  for (const point of points) {
    const { metric, kind, unit, description, tags } = point.series;
    const name = `barrage_${sanitize(metric)}`;
    switch (kind) {
      case 'counter': {
        const total = `${name}${unit === 'bytes' ? '_bytes' : ''}_total`;
        out.family(total, METRIC_TYPE.COUNTER, description, unit === 'bytes' ? 'bytes' : '');
        out.sample(total, tags, point.total.count);
        break;
      }
      case 'rate':
        out.family(`${name}_total`, METRIC_TYPE.COUNTER, `${description} (true samples)`, '');
        out.family(`${name}_samples_total`, METRIC_TYPE.COUNTER, `${description} (samples)`, '');
        out.sample(`${name}_total`, tags, point.total.trues);
        out.sample(`${name}_samples_total`, tags, point.total.count);
        break;
      case 'gauge':
        out.family(name, METRIC_TYPE.GAUGE, description, '');
        out.sample(name, tags, point.series.value);
        break;
      case 'trend':
        trendSeries(out, `${name}${unit === 'ms' ? '_seconds' : ''}`, point, trendAs);
        break;
    }
  }
  return { series: out.series, metadata: [...out.metadata.values()] };
}

/** A trend's series: its histogram since the run began, native or as a summary. */
function trendSeries(out: FlushBuilder, name: string, point: Point, trendAs: TrendAs): void {
  const { histogram } = point.total;
  if (histogram === undefined || histogram.totalCount === 0) return;
  const { unit, description, tags } = point.series;
  // Recorded values are the unit's × TREND_SCALE: µs of ms, sent as seconds.
  const divisor = unit === 'ms' ? TREND_SCALE * 1000 : TREND_SCALE;
  if (trendAs === 'native') {
    out.family(name, METRIC_TYPE.HISTOGRAM, description, unitName(unit));
    out.histogram(name, tags, histogram, divisor);
    return;
  }
  out.family(name, METRIC_TYPE.SUMMARY, description, unitName(unit));
  // summarizeHistogram reads values / 1000: the unit's own, which is ms for a time trend.
  const stats = summarizeHistogram(histogram)!;
  const toUnit = unit === 'ms' ? 1 / 1000 : 1;
  for (const [quantile, stat] of QUANTILES)
    out.sample(name, tags, stats[stat] * toUnit, { quantile });
  out.sample(`${name}_sum`, tags, stats.mean * histogram.totalCount * toUnit);
  out.sample(`${name}_count`, tags, histogram.totalCount);
}

/** The unit metadata names: seconds for ms (sent as seconds), else the metric's own. */
function unitName(unit: MetricUnit): string {
  return unit === 'ms' ? 'seconds' : unit === 'bytes' ? 'bytes' : '';
}

/** Collects a flush's series and families. */
class FlushBuilder {
  readonly series: PromSeries[] = [];
  readonly metadata = new Map<string, PromMetadata>();
  readonly #timeMs: number;

  constructor(timeMs: number) {
    this.#timeMs = timeMs;
  }

  family(name: string, type: PromMetadata['type'], help: string, unit: string): void {
    if (!this.metadata.has(name))
      this.metadata.set(name, { type, metricFamilyName: name, help, unit });
  }

  sample(name: string, tags: Tags, value: number, extra: Tags = {}): void {
    this.series.push({
      labels: labelsOf(name, { ...tags, ...extra }),
      samples: [{ value, timestamp: this.#timeMs }],
      histograms: [],
    });
  }

  histogram(
    name: string,
    tags: Tags,
    histogram: NonNullable<Point['total']['histogram']>,
    divisor: number,
  ): void {
    const buckets = exponentialBuckets(histogram, divisor);
    const spans: { offset: number; length: number }[] = [];
    const deltas: number[] = [];
    // Spans of consecutive indexes: the first's offset is its index, the next ones' the gap.
    let previous: { index: number; count: number } | undefined;
    for (const bucket of buckets.buckets) {
      const gap = previous === undefined ? bucket.index : bucket.index - previous.index - 1;
      if (previous === undefined || gap > 0) spans.push({ offset: gap, length: 1 });
      else spans[spans.length - 1]!.length++;
      deltas.push(bucket.count - (previous?.count ?? 0));
      previous = bucket;
    }
    this.series.push({
      labels: labelsOf(name, tags),
      samples: [],
      histograms: [
        {
          countInt: buckets.count,
          sum: buckets.sum,
          schema: buckets.schema,
          // Only values of exactly 0 fall in the zero bucket.
          zeroThreshold: 0,
          zeroCountInt: buckets.zeroCount,
          positiveSpans: spans,
          positiveDeltas: deltas,
          timestamp: this.#timeMs,
        },
      ],
    });
  }
}

/** `__name__` and the tags as labels, sorted by name. */
export function labelsOf(name: string, tags: Tags): PromLabel[] {
  const labels = new Map<string, { value: string; valid: boolean }>();
  for (const tagName of Object.keys(tags).sort()) {
    const value = tags[tagName]!;
    const label = sanitize(tagName);
    if (value === '' || label === '__name__') continue;
    const valid = label === tagName;
    if (labels.has(label) && !(valid && !labels.get(label)!.valid)) continue;
    labels.set(label, { value, valid });
  }
  return [
    { name: '__name__', value: name },
    ...[...labels].map(([label, { value }]) => ({ name: label, value })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A name as Prometheus takes it: [a-zA-Z_][a-zA-Z0-9_]*. */
export function sanitize(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_]/g, '_');
  return /^[0-9]/.test(replaced) || replaced === '' ? `_${replaced}` : replaced;
}
