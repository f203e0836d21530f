/**
 * The HTML report's charts of the registry's figures beyond the requests': the LLM output tokens
 * per second over the run (from the JSON result's series, `llm_output_tokens` of each second), and
 * the percentile curve of each trend the registry marks `distribution` (LLM TTFT and ITL, from
 * their HDR histograms: the `#barrage-series` block's `distributions`), drawn as the latency's.
 */
import { isBuiltinMetric } from '../../model/metrics/metric-registry.js';
import { figureOf } from '../../model/metrics/metric-figures.js';
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { escapeHtml, figure, section, table } from './html-markup.js';
import { formatMs } from './report-figures.js';

/** The percentiles a curve's table quotes. */
const QUOTED = [50, 90, 99, 99.9, 100];

/** The output tokens/s chart, when a second of the run counted LLM output tokens. */
export function llmTimeCharts(r: RunResult): string[] {
  if (!r.series.some((p) => p.llm_output_tokens !== undefined)) return [];
  return [
    figure(
      'llm-tokens',
      'LLM output tokens per second',
      'output tokens of the LLM requests that ended in each second',
    ),
  ];
}

/** A trend's label in the reports (its registry row's), else its name. */
function labelOf(metric: string): string {
  return isBuiltinMetric(metric) ? (figureOf(metric)?.spec.label ?? metric) : metric;
}

/** Each marked trend's percentile curve, with the percentiles people quote beside it. */
export function figureCurves(r: RunResult): string | undefined {
  const curves = Object.entries(r.figure_distributions ?? {});
  if (curves.length === 0) return undefined;
  const parts = curves.map(([metric, points]) => {
    const label = labelOf(metric);
    const rows = points
      .filter((p) => QUOTED.includes(p.percentile))
      .map((p) => [p.percentile === 100 ? 'max' : `p${p.percentile}`, formatMs(p.ms)]);
    const curve = figure(
      `distribution-${metric}`,
      `${label}: percentile curve (ms)`,
      `${label} by percentile, log scale`,
    );
    return `<h3>${escapeHtml(label)}</h3>\n<div class="charts">\n${curve}\n<div>${table(['percentile', 'ms'], rows, { numeric: [1] })}</div>\n</div>`;
  });
  return section('figure-distributions', 'LLM distributions', parts.join('\n'));
}
