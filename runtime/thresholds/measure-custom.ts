/**
 * What a threshold on a custom metric reads (docs/configuration.md, Custom metrics): the series
 * of the metric in each source (the run's snapshot, or each scenario's with its tags) whose tags,
 * with the source's, hold every tag of the filter, summed (merge-custom.ts), then by kind:
 *   counter  count = Σ values         rate = count / elapsed seconds
 *   rate     rate = trues / samples   count = trues
 *   gauge    value = the latest value set, min, max
 *   trend    pNN (the highest value equivalent to it), avg = mean, min, max (as recorded)
 * No matching sample gives null: the threshold fails, as a built-in one with no data.
 */
import type { Tags } from '../../model/metrics/metric-registry.js';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { decodeTrend, trendMean, trendPercentile } from '../metrics/custom-histogram.js';
import type { CustomSeriesSnapshot } from '../metrics/custom-snapshot.js';
import { sumSeries } from '../metrics/merge-custom.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { perSecond } from '../metrics/summarize.js';

/** A snapshot a threshold reads, and the tags all its samples carry. */
export interface CustomSource {
  readonly own: ShardSnapshot;
  readonly tags: Tags;
}

/** The measured value of a spec on a custom metric, or null when nothing matched. */
export function measureCustom(
  spec: ThresholdSpec,
  sources: readonly CustomSource[],
  elapsedMs: number,
): number | null {
  const matching: CustomSeriesSnapshot[] = [];
  let kind: string | undefined;
  for (const source of sources) {
    const metric = source.own.custom?.[spec.metric];
    if (metric === undefined || !Object.hasOwn(source.own.custom!, spec.metric)) continue;
    kind = metric.kind;
    for (const series of metric.series)
      if (holds(spec.tags, { ...source.tags, ...series.tags })) matching.push(series);
  }
  if (kind === undefined || matching.length === 0) return null;
  const s = sumSeries(matching);
  if (s.samples === 0) return null;
  switch (kind) {
    case 'counter':
      return spec.aggregate === 'rate' ? perSecond(s.sum, elapsedMs) : s.sum;
    case 'rate':
      return spec.aggregate === 'count' ? s.trues : s.trues / s.samples;
    case 'gauge':
      return spec.aggregate === 'min' ? s.min : spec.aggregate === 'max' ? s.max : s.last;
    default:
      return trend(spec, s);
  }
}

/** True when every tag of the filter has its value in `tags`. */
function holds(filter: Tags, tags: Tags): boolean {
  for (const [key, value] of Object.entries(filter)) if (tags[key] !== value) return false;
  return true;
}

function trend(spec: ThresholdSpec, s: CustomSeriesSnapshot): number | null {
  switch (spec.aggregate) {
    case 'min':
      return s.min;
    case 'max':
      return s.max;
    case 'avg':
    case 'mean':
      return trendMean(decodeTrend(s.histogram));
  }
  const percentile = spec.percentile;
  if (percentile === undefined) return null;
  return trendPercentile(decodeTrend(s.histogram), percentile);
}
