/**
 * Custom metrics merged exactly (merge-stats.ts): series of the same metric and tag key are summed
 * field by field (samples, sum, trues, folded, rejected), min and max kept, the latest gauge value
 * kept (the greater value when two were set at the same millisecond, so the order of the shards
 * does not matter), histograms added counter by counter. Metrics by name and series by tag key in
 * code-point order: any grouping or order of the same shards gives a deep-equal result (sums of
 * integers are exact up to 2^53; fractions summed in another order may differ in the last bits).
 */
import { addTrends } from './custom-histogram.js';
import type {
  CustomMetricSnapshot,
  CustomSeriesSnapshot,
  CustomSnapshot,
} from './custom-snapshot.js';
import { seriesKey } from './custom-snapshot.js';

/** The merge of the shards' custom metrics; undefined when none has any. */
export function mergeCustom(
  all: readonly (CustomSnapshot | undefined)[],
): CustomSnapshot | undefined {
  const byName = new Map<string, CustomMetricSnapshot[]>();
  for (const custom of all)
    for (const [name, metric] of Object.entries(custom ?? {})) {
      const list = byName.get(name);
      if (list === undefined) byName.set(name, [metric]);
      else list.push(metric);
    }
  if (byName.size === 0) return undefined;
  const names = [...byName.keys()].sort();
  // fromEntries defines own properties: a metric named "__proto__" stays a plain key.
  return Object.fromEntries(names.map((n) => [n, mergeMetric(n, byName.get(n)!)]));
}

function mergeMetric(name: string, all: readonly CustomMetricSnapshot[]): CustomMetricSnapshot {
  const kind = all[0]!.kind;
  if (all.some((m) => m.kind !== kind))
    throw new Error(`mergeCustom: ${name} is a ${kind} in one shard and not in another`);
  return {
    kind,
    series: mergeSeries(all.flatMap((m) => m.series)),
    folded: all.reduce((n, m) => n + m.folded, 0),
    rejected: all.reduce((n, m) => n + m.rejected, 0),
  };
}

/** Series of the same tag set summed; by tag key. */
export function mergeSeries(all: readonly CustomSeriesSnapshot[]): CustomSeriesSnapshot[] {
  const byKey = new Map<string, CustomSeriesSnapshot[]>();
  for (const s of all) {
    const key = seriesKey(s.tags);
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [s]);
    else group.push(s);
  }
  return [...byKey.keys()].sort().map((key) => sumSeries(byKey.get(key)!));
}

/** One tag set's series summed (the figures a threshold reads of several tag sets, too). */
export function sumSeries(group: readonly CustomSeriesSnapshot[]): CustomSeriesSnapshot {
  let latest = group[0]!;
  for (const s of group)
    if (s.lastAt > latest.lastAt || (s.lastAt === latest.lastAt && s.last > latest.last))
      latest = s;
  return {
    tags: group[0]!.tags,
    samples: group.reduce((n, s) => n + s.samples, 0),
    sum: group.reduce((n, s) => n + s.sum, 0),
    trues: group.reduce((n, s) => n + s.trues, 0),
    last: latest.last,
    lastAt: latest.lastAt,
    min: Math.min(...group.map((s) => s.min)),
    max: Math.max(...group.map((s) => s.max)),
    histogram: addTrends(group.map((s) => s.histogram)),
  };
}
