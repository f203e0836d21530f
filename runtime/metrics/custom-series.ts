/**
 * A shard's custom metrics as they are recorded (custom-snapshot.ts has the figures' meaning).
 * Samples come from a scenario's add() or an endpoint's extractor, never per request of the hot
 * path, so a sample may allocate its tag key; a metric keeps at most MAX_SERIES tag sets.
 */
import type { MetricKind, Tags } from '../../model/metrics/metric-registry.js';
import {
  createTrendHistogram,
  encodeTrend,
  recordTrend,
  type TrendHistogram,
} from './custom-histogram.js';
import {
  MAX_SERIES,
  OTHER_SERIES_TAGS,
  seriesKey,
  type CustomMetricSnapshot,
  type CustomSeriesSnapshot,
  type CustomSnapshot,
} from './custom-snapshot.js';

/** One tag set's figures. */
class Series {
  samples = 0;
  sum = 0;
  trues = 0;
  last = 0;
  lastAt = 0;
  min = Infinity;
  max = -Infinity;
  readonly histogram: TrendHistogram | undefined;
  /** The histogram's encoding, until the next value (live snapshots come every 500 ms). */
  #encoded: string | undefined;

  constructor(
    readonly tags: Tags,
    kind: MetricKind,
  ) {
    this.histogram = kind === 'trend' ? createTrendHistogram() : undefined;
  }

  add(value: number, atMs: number): void {
    this.samples++;
    this.sum += value;
    if (value !== 0) this.trues++;
    this.last = value;
    this.lastAt = atMs;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    if (this.histogram !== undefined) {
      recordTrend(this.histogram, value);
      this.#encoded = undefined;
    }
  }

  snapshot(): CustomSeriesSnapshot {
    return {
      tags: this.tags,
      samples: this.samples,
      sum: this.sum,
      trues: this.trues,
      last: this.last,
      lastAt: this.lastAt,
      min: this.min,
      max: this.max,
      histogram:
        this.histogram === undefined ? '' : (this.#encoded ??= encodeTrend(this.histogram)),
    };
  }
}

/** One metric's series, by tag key. */
class Metric {
  readonly series = new Map<string, Series>();
  folded = 0;
  rejected = 0;

  constructor(readonly kind: MetricKind) {}

  add(value: number, tags: Tags, atMs: number): void {
    const key = seriesKey(tags);
    let series = this.series.get(key);
    if (series === undefined) {
      if (this.series.size < MAX_SERIES) {
        series = new Series(Object.freeze({ ...tags }), this.kind);
        this.series.set(key, series);
      } else {
        this.folded++;
        const other = seriesKey(OTHER_SERIES_TAGS);
        series = this.series.get(other);
        if (series === undefined) {
          series = new Series(OTHER_SERIES_TAGS, this.kind);
          this.series.set(other, series);
        }
      }
    }
    series.add(value, atMs);
  }

  snapshot(): CustomMetricSnapshot {
    const keys = [...this.series.keys()].sort();
    return {
      kind: this.kind,
      series: keys.map((k) => this.series.get(k)!.snapshot()),
      folded: this.folded,
      rejected: this.rejected,
    };
  }
}

/** A shard's custom metrics. */
export class CustomSeries {
  readonly #metrics = new Map<string, Metric>();

  /** A sample: a rate's true is any non-zero value (callers pass 1 or 0); a trend's is ≥ 0. */
  add(name: string, kind: MetricKind, value: number, tags: Tags, atMs: number): void {
    this.#metric(name, kind).add(value, tags, atMs);
  }

  /** A value that could not be a sample of the metric (not a number, a negative trend value). */
  reject(name: string, kind: MetricKind): void {
    this.#metric(name, kind).rejected++;
  }

  /** The metrics recorded so far, by name in code-point order; undefined when there are none. */
  snapshot(): CustomSnapshot | undefined {
    if (this.#metrics.size === 0) return undefined;
    const names = [...this.#metrics.keys()].sort();
    // fromEntries defines own properties: a metric named "__proto__" stays a plain key.
    return Object.fromEntries(names.map((n) => [n, this.#metrics.get(n)!.snapshot()]));
  }

  #metric(name: string, kind: MetricKind): Metric {
    let metric = this.#metrics.get(name);
    if (metric === undefined) this.#metrics.set(name, (metric = new Metric(kind)));
    return metric;
  }
}
