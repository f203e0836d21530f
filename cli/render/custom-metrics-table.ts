/**
 * Custom metrics as the text, Markdown and HTML reports show them (docs/reports.md, Custom
 * metrics): one line a metric with its type and its kind's figures, then, when its samples carried
 * tags, a line per tag set (at most MAX_TAG_LINES a metric; the JSON report has them all):
 *   trend    p50, p95, p99, avg, max in its unit        count  counter  count, rate /s
 *   rate     the true share in %, and trues of total     gauge  value, min, max
 */
import Table from 'cli-table3';
import type { Tags } from '../../model/metrics/metric-registry.js';
import type { CustomFigures, CustomMetricResult } from '../../runtime/metrics/run-result.js';

/** Tag sets listed per metric in the text and Markdown reports. */
export const MAX_TAG_LINES = 10;

/** A value as reports print it: whole numbers as they are, others with 2 decimals. */
function shown(value: number, unit: string): string {
  const text = Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (unit === 'ms') return `${text}ms`;
  return unit === 'bytes' ? `${text} B` : text;
}

/** A metric's (or a tag set's) figures as one line of text. */
export function figuresText(
  type: CustomMetricResult['type'],
  unit: string,
  f: CustomFigures,
): string {
  if ('p95' in f)
    return `count=${f.count} p50=${shown(f.p50, unit)} p95=${shown(f.p95, unit)} p99=${shown(f.p99, unit)} avg=${shown(f.avg, unit)} max=${shown(f.max, unit)}`;
  if ('trues' in f) return `${(f.rate * 100).toFixed(1)}% (${f.trues} of ${f.total})`;
  if ('value' in f)
    return `value=${shown(f.value, unit)} min=${shown(f.min, unit)} max=${shown(f.max, unit)}`;
  return type === 'counter' ? `count=${shown(f.count, unit)} rate=${f.rate.toFixed(2)}/s` : '';
}

/** Tags as `{key=value,…}`. */
export function tagsText(tags: Tags): string {
  return `{${Object.entries(tags)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')}}`;
}

/** Rows of the custom metrics: [name or "  {tags}", type, figures]. */
export function customMetricRows(
  metrics: Readonly<Record<string, CustomMetricResult>>,
): [string, string, string][] {
  const rows: [string, string, string][] = [];
  for (const [name, m] of Object.entries(metrics)) {
    rows.push([name, m.type, figuresText(m.type, m.unit, m)]);
    const tagged = m.by_tags ?? [];
    for (const s of tagged.slice(0, MAX_TAG_LINES))
      rows.push([`  ${tagsText(s.tags)}`, '', figuresText(m.type, m.unit, s)]);
    if (tagged.length > MAX_TAG_LINES)
      rows.push([`  … ${tagged.length - MAX_TAG_LINES} more tag sets in the JSON report`, '', '']);
  }
  return rows;
}

/** The `Custom metrics:` table of the text report; undefined when there are none. */
export function renderCustomMetricsTable(
  metrics: Readonly<Record<string, CustomMetricResult>> | undefined,
): string | undefined {
  if (metrics === undefined || Object.keys(metrics).length === 0) return undefined;
  const table = new Table({
    head: ['metric', 'type', 'figures'],
    style: { head: [], border: [], compact: true },
  });
  for (const row of customMetricRows(metrics)) table.push(row);
  return `Custom metrics:\n${table.toString()}`;
}
