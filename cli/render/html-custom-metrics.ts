/**
 * The HTML report's custom metrics section (docs/reports.md, Custom metrics): each trend's
 * percentile curve (drawn in the browser, html-charts-script.ts, as `trend-<i>` in the order of
 * the JSON's trends), a table of every metric and each of its tag sets with the kind's figures,
 * then the warnings of the metrics model's bounds.
 */
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { escapeHtml, section, table } from './html-markup.js';
import { figuresText, tagsText } from './custom-metrics-table.js';

/** The section; undefined when the run had no custom metric and no warning. */
export function customMetricsSection(r: RunResult): string | undefined {
  const metrics = Object.entries(r.metrics ?? {});
  const warnings = r.warnings ?? [];
  if (metrics.length === 0 && warnings.length === 0) return undefined;
  const rows = metrics.flatMap(([name, m]) => [
    [name, m.type, '', figuresText(m.type, m.unit, m)],
    ...(m.by_tags ?? []).map((s) => [
      name,
      m.type,
      tagsText(s.tags),
      figuresText(m.type, m.unit, s),
    ]),
  ]);
  const trends = metrics.filter(([, m]) => m.type === 'trend');
  const curves = trends.map(
    ([name, m], i) =>
      `<figure data-chart="trend-${i}">\n<figcaption>${escapeHtml(`${name} (${m.unit})`)}</figcaption>\n<div class="plot" role="img" aria-label="${escapeHtml(`percentiles of ${name}`)}"><noscript>Charts need JavaScript.</noscript></div>\n</figure>`,
  );
  const body = [
    curves.length === 0 ? '' : `<div class="charts">\n${curves.join('\n')}\n</div>`,
    rows.length === 0
      ? ''
      : table(['metric', 'type', 'tags', 'figures'], rows, { id: 'custom-metrics-table' }),
    ...warnings.map((w) => `<p class="warning">⚠ ${escapeHtml(w)}</p>`),
  ]
    .filter((part) => part !== '')
    .join('\n');
  return section('custom-metrics', 'Custom metrics', body);
}
