/**
 * The figures of custom metrics in a RunResult (docs/reports.md, Custom metrics), and the warnings
 * the bounds of the metrics model call for. Per metric, all its series summed, then, when its
 * samples carried tags, each tag set's own:
 *   counter  count = Σ values, rate = count / elapsed seconds
 *   rate     rate = trues / total, trues, total
 *   gauge    value (the latest set), min, max
 *   trend    count, avg, min, max (as recorded), p50, p90, p95, p99 (highest equivalent values)
 */
import type { CustomMetric, MetricKind } from '../../model/metrics/metric-registry.js';
import type { CustomFigures, CustomMetricResult } from './run-result.js';
import { decodeTrend, trendMean, trendPercentile } from './custom-histogram.js';
import { MAX_SERIES, OTHER_SERIES_TAGS, type CustomSeriesSnapshot } from './custom-snapshot.js';
import { sumSeries } from './merge-custom.js';
import { MAX_NAMES, OTHER_NAME } from './name-bound.js';
import type { ShardSnapshot } from './snapshot.js';

/** Each custom metric's figures, by name; declared metrics with no sample are left out. */
export function customResults(
  snapshot: ShardSnapshot,
  declared: Readonly<Record<string, CustomMetric>>,
): Record<string, CustomMetricResult> {
  const out: [string, CustomMetricResult][] = [];
  for (const [name, metric] of Object.entries(snapshot.custom ?? {})) {
    if (metric.series.length === 0) continue;
    const declaration = Object.hasOwn(declared, name) ? declared[name] : undefined;
    const figures = (series: readonly CustomSeriesSnapshot[]): CustomFigures =>
      figuresOf(metric.kind, sumSeries(series), snapshot.elapsedMs);
    const tagged = metric.series.some((s) => Object.keys(s.tags).length > 0);
    out.push([
      name,
      {
        type: metric.kind,
        unit: declaration?.unit ?? 'none',
        ...(declaration === undefined || declaration.description === ''
          ? {}
          : { description: declaration.description }),
        ...figures(metric.series),
        ...(tagged
          ? { by_tags: metric.series.map((s) => ({ tags: s.tags, ...figures([s]) })) }
          : {}),
      },
    ]);
  }
  // fromEntries defines own properties: a metric named "__proto__" stays a plain key.
  return Object.fromEntries(out);
}

/** One series' (or a sum's) figures by kind. */
function figuresOf(kind: MetricKind, s: CustomSeriesSnapshot, elapsedMs: number): CustomFigures {
  switch (kind) {
    case 'counter':
      return { count: s.sum, rate: elapsedMs > 0 ? s.sum / (elapsedMs / 1000) : 0 };
    case 'rate':
      return { rate: s.samples === 0 ? 0 : s.trues / s.samples, trues: s.trues, total: s.samples };
    case 'gauge':
      return { value: s.last, min: s.min, max: s.max };
    case 'trend': {
      const h = decodeTrend(s.histogram);
      return {
        count: s.samples,
        avg: trendMean(h),
        min: s.min,
        max: s.max,
        p50: trendPercentile(h, 50),
        p90: trendPercentile(h, 90),
        p95: trendPercentile(h, 95),
        p99: trendPercentile(h, 99),
      };
    }
  }
}

/** The warnings of the metrics model's bounds: folded tag sets, rejected values, folded names. */
export function metricWarnings(snapshot: ShardSnapshot): string[] {
  const out: string[] = [];
  const other = Object.entries(OTHER_SERIES_TAGS)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  for (const [name, metric] of Object.entries(snapshot.custom ?? {})) {
    if (metric.folded > 0)
      out.push(
        `custom metric ${name} had more than ${MAX_SERIES} tag sets in a thread: ${metric.folded} samples were counted in its series {${other}}`,
      );
    if (metric.rejected > 0)
      out.push(
        `custom metric ${name}: ${metric.rejected} extracted values were not samples of a ${metric.kind} (not a number${metric.kind === 'trend' ? ', or below 0' : ''}) and were left out`,
      );
  }
  const names = snapshot.foldedNames ?? 0;
  if (names > 0)
    out.push(
      `at least ${names} request names past the first ${MAX_NAMES} were counted under ${OTHER_NAME}; give requests a name (the name option) so that their urls group`,
    );
  return out;
}
