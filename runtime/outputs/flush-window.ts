/**
 * What changed between two flushes of a live output: each series' figures since the run began
 * (what Prometheus and OpenTelemetry take: cumulative counters and histograms) and since the last
 * flush (what InfluxDB and the JSON stream take: one point per series and period). A series seen
 * for the first time counts whole in its first period.
 */
import { seriesKey } from '../metrics/custom-snapshot.js';
import type { MicrosHistogram } from '../metrics/histogram.js';
import { decodeSamples, type Series } from './metric-series.js';

/** Figures of a series over some span. */
export interface Figures {
  /** counter: the sum; rate and trend: the samples; gauge: 0. */
  readonly count: number;
  /** rate: the true samples. */
  readonly trues: number;
  /** trend: its samples (values × TREND_SCALE). */
  readonly histogram?: MicrosHistogram;
}

/** A series at a flush. */
export interface Point {
  readonly series: Series;
  /** Since the run began. */
  readonly total: Figures;
  /** Since the previous flush. */
  readonly delta: Figures;
}

/** The previous flush's figures of every series, to subtract from the next one's. */
export class FlushWindow {
  readonly #previous = new Map<string, { count: number; trues: number; encoded: string }>();

  /** Every series' point; the figures become the previous ones. */
  next(series: readonly Series[]): Point[] {
    return series.map((s) => {
      const key = `${s.metric}\u0000${seriesKey(s.tags)}`;
      const before = this.#previous.get(key);
      const encoded = s.trend?.encoded ?? '';
      this.#previous.set(key, { count: s.count, trues: s.trues, encoded });
      if (s.trend === undefined)
        return {
          series: s,
          total: { count: s.count, trues: s.trues },
          delta: { count: s.count - (before?.count ?? 0), trues: s.trues - (before?.trues ?? 0) },
        };
      const histogram = decodeSamples(s.trend);
      const total = { count: histogram.totalCount, trues: 0, histogram };
      if (before === undefined || before.encoded === '') return { series: s, total, delta: total };
      const delta = decodeSamples(s.trend);
      if (before.encoded !== encoded)
        delta.subtract(decodeSamples({ ...s.trend, encoded: before.encoded }));
      else delta.reset();
      return { series: s, total, delta: { count: delta.totalCount, trues: 0, histogram: delta } };
    });
  }
}
