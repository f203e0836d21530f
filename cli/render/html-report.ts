/**
 * The HTML report (`--html`, `report.html`): one self-contained file that opens offline in any
 * browser. Tables and figures are rendered here, so the page reads (and prints) without script;
 * the charts are drawn in the browser by uPlot from the JSON result inlined in a
 * `<script type="application/json" id="barrage-data">` block (the same object as `--json`).
 *
 * Nothing is fetched: no fonts, no CDN, no images. A Content-Security-Policy in the page says so
 * too (default-src 'none'; the two inline scripts allowed by their SHA-256 hashes), so a report
 * whose text were ever injected still could not load or send anything. User text (endpoint names,
 * check names, configuration values) is HTML-escaped; the JSON block escapes `<` as \u003c, so a
 * name containing `</script>` cannot end the block. The configuration shown is RunReport.config,
 * already redacted (secrets never appear: DESIGN.md §9).
 */
import { customMetricsSection } from './html-custom-metrics.js';
import { sampleFailuresSection } from './html-sample-failures.js';
import { auth, checks, llm, openModel, streams, websocket } from './html-optional-sections.js';
import { grpcSection } from './html-grpc.js';
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';
import type { ChartLibrary } from './chart-library.js';
import { chartedEndpoints, chartSeries } from './html-chart-series.js';
import { CHARTS_SCRIPT } from './html-charts-script.js';
import { REPORT_STYLE } from './html-report-style.js';
import {
  abortSeconds,
  formatBytes,
  formatCount,
  formatMs,
  formatShare,
  sortedErrors,
  sortedStatusCodes,
  anyBaseline,
  baselineSource,
  thresholdActual,
  thresholdBaseline,
  thresholdExpected,
  verdictOf,
} from './report-figures.js';
import { toJsonResult } from './json-report.js';
import { escapeHtml, figure, html, scriptJson, section, table, type Cell } from './html-markup.js';
import { figureCurves, llmTimeCharts } from './html-figure-charts.js';
import type { BaselineOverlay, RunReport, ThresholdSummary } from './run-report.js';
import { emptyRunWarning, stoppedLine, unsentWarning } from './text-report.js';

/** What the HTML report needs besides the run. */
export interface HtmlReportOptions {
  /** The chart library to inline (chart-library.ts). */
  readonly chart: ChartLibrary;
  /** barrage's version, for the footer. */
  readonly version: string;
}

function header(report: RunReport): string {
  const verdict = verdictOf(report);
  const badge = verdict.passed === undefined ? 'none' : verdict.passed ? 'pass' : 'fail';
  const r = report.result;
  const meta = [
    report.meta.target ?? 'no target (scenario)',
    report.meta.load,
    `started ${r.started_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    `ran ${(r.duration_ms / 1000).toFixed(2)} s`,
  ];
  const notices: string[] = [];
  const stopped = stoppedLine(report);
  if (stopped !== undefined) notices.push(stopped);
  for (const warning of [unsentWarning(r), emptyRunWarning(r)])
    if (warning !== undefined) notices.push(warning);
  return [
    '<header>',
    `<h1>barrage load test report <span class="badge ${badge}" id="verdict">${escapeHtml(verdict.text)}</span></h1>`,
    `<p class="meta">${meta.map((m) => `<span>${escapeHtml(m)}</span>`).join('')}</p>`,
    ...notices.map((n) => `<p class="notice">${escapeHtml(n)}</p>`),
    '</header>',
  ].join('\n');
}

function tile(label: string, value: string, bad = false): string {
  return `<div class="tile${bad ? ' bad' : ''}"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div></div>`;
}

function summary(r: RunResult): string {
  const l = r.latency_ms;
  const tiles = [
    tile('Requests', formatCount(r.total)),
    tile('Successful', formatCount(r.successes)),
    tile(
      'Failed',
      `${formatCount(r.failures)} (${formatShare(r.failures, r.total)})`,
      r.failures > 0,
    ),
    tile('Requests/sec', r.requests_per_sec.toFixed(2)),
    tile('p50 ms', formatMs(l?.p50)),
    tile('p95 ms', formatMs(l?.p95)),
    tile('p99 ms', formatMs(l?.p99)),
    tile('Max ms', formatMs(l?.max)),
    tile('Mean ms', formatMs(l?.mean)),
    tile('Received', formatBytes(r.bytes_received)),
    ...(r.bytes_decoded > 0 ? [tile('Decoded', formatBytes(r.bytes_decoded))] : []),
    tile('Sent', formatBytes(r.bytes_sent)),
  ];
  if (r.iterations !== r.total) tiles.push(tile('Iterations', formatCount(r.iterations)));
  if (r.retries > 0) tiles.push(tile('Retries', formatCount(r.retries)));
  if (r.redirects > 0) tiles.push(tile('Redirects', formatCount(r.redirects)));
  if (r.unsent > 0) tiles.push(tile('Unsent', formatCount(r.unsent), true));
  if (r.iterations_failed > 0)
    tiles.push(tile('Failed iterations', formatCount(r.iterations_failed), true));
  return section('summary', 'Summary', `<div class="tiles">\n${tiles.join('\n')}\n</div>`);
}

function thresholds(
  summary: ThresholdSummary | undefined,
  base: BaselineOverlay | undefined,
): string {
  if (summary === undefined)
    return section('thresholds', 'Thresholds', '<p class="empty">No thresholds are defined.</p>');
  const baseline = anyBaseline(summary.results);
  const rows = summary.results.map((t) => [
    html(`<span class="mark ${t.pass ? 'pass' : 'fail'}">${t.pass ? '✓ pass' : '✗ fail'}</span>`),
    html(`<code>${escapeHtml(t.threshold)}</code>`),
    thresholdActual(t),
    ...(baseline ? [thresholdBaseline(t)] : []),
    thresholdExpected(t),
  ]);
  const heads = ['result', 'threshold', 'actual', ...(baseline ? ['baseline'] : []), 'expected'];
  const body = table(heads, rows, {
    numeric: baseline ? [2, 3] : [2],
    id: 'thresholds-table',
    rowClass: (i) => (summary.results[i]?.pass === false ? 'fail' : ''),
  });
  const aborted =
    summary.aborted === undefined
      ? ''
      : `\n<p class="notice" id="aborted">Stopped the run (abort_on_fail): <code>${escapeHtml(summary.aborted.threshold)}</code> failed at ${abortSeconds(summary.aborted)}</p>`;
  const source =
    base === undefined
      ? ''
      : `<p class="notice" id="baseline-source">Baseline: ${escapeHtml(baselineSource(base))}</p>\n`;
  return section(
    'thresholds',
    `Thresholds: ${summary.passed} of ${summary.total} passed`,
    `${source}${body}${aborted}`,
  );
}

function charts(r: RunResult, baseline: BaselineOverlay | undefined): string {
  const figures = [
    figure('throughput', 'Requests per second', 'requests per second over the run'),
    figure('latency', 'Latency percentiles (ms)', 'p50, p95 and p99 latency per second'),
    figure('errors', 'Failed requests per second', 'failed requests per second over the run'),
    ...(r.vus_series === undefined
      ? []
      : [figure('vus', 'Active virtual users', 'active virtual users per second')]),
    ...(chartedEndpoints(r).length === 0
      ? []
      : [
          figure(
            'endpoint-throughput',
            'Requests per second by endpoint',
            'requests per second of each endpoint over the run',
          ),
          figure(
            'endpoint-latency',
            'Mean latency by endpoint (ms)',
            'mean latency of each endpoint per second',
          ),
        ]),
    ...llmTimeCharts(r),
  ];
  return section(
    'charts',
    'Over time',
    `${baselineNote(baseline)}<div class="charts">\n${figures.join('\n')}\n</div>`,
    true,
  );
}

/** Says which run the dashed lines are, when there is a baseline. */
function baselineNote(baseline: BaselineOverlay | undefined): string {
  return baseline === undefined
    ? ''
    : `<p class="notice" id="baseline-note">Dashed lines: the baseline run, ${escapeHtml(baselineSource(baseline))}.</p>\n`;
}

/** The curve and, beside it, the percentiles people quote. */
function distribution(r: RunResult, baseline: BaselineOverlay | undefined): string {
  const quoted = new Set([50, 90, 99, 99.9, 99.99, 100]);
  const base = new Map(baseline?.latency_distribution.map((p) => [p.percentile, p.ms]));
  const rows = r.latency_distribution
    .filter((p) => quoted.has(p.percentile))
    .map((p) => [
      p.percentile === 100 ? 'max' : `p${p.percentile}`,
      formatMs(p.ms),
      ...(baseline === undefined ? [] : [formatMs(base.get(p.percentile))]),
    ]);
  const heads = ['percentile', 'ms', ...(baseline === undefined ? [] : ['baseline ms'])];
  const side =
    rows.length === 0
      ? '<p class="empty">No latency was measured.</p>'
      : table(heads, rows, { numeric: baseline === undefined ? [1] : [1, 2] });
  const curve = figure('distribution', 'Percentile curve', 'latency by percentile, log scale');
  return section(
    'distribution',
    'Latency distribution',
    `<div class="charts">\n${curve}\n<div>${side}</div>\n</div>`,
  );
}

function countRows(entries: readonly [string, number][], whole: number): Cell[][] {
  const sum = entries.reduce((acc, [, n]) => acc + n, 0);
  return entries.map(([k, n]) => [k, formatCount(n), formatShare(n, Math.max(whole, sum))]);
}

function outcomes(r: RunResult): string {
  const status = sortedStatusCodes(r);
  const errors = sortedErrors(r);
  const statusBody =
    status.length === 0
      ? '<p class="empty">No responses.</p>'
      : table(['status', 'count', 'share'], countRows(status, r.total), { numeric: [1, 2] });
  const errorBody =
    errors.length === 0
      ? '<p class="empty">No errors.</p>'
      : table(['error kind', 'count', 'share'], countRows(errors, r.total), { numeric: [1, 2] });
  return section(
    'outcomes',
    'Responses',
    `<div class="columns">\n<div><h3>Status codes</h3>\n${statusBody}</div>\n<div><h3>Error kinds</h3>\n${errorBody}</div>\n</div>`,
  );
}

/** A latency's p50, p95 and p99 cells, ms. */
function percentileCells(l: LatencySummary | undefined): string[] {
  return [formatMs(l?.p50), formatMs(l?.p95), formatMs(l?.p99)];
}

/** Named scenarios, one row each; undefined in a run of the top-level form. */
function scenarios(r: RunResult): string | undefined {
  if (r.scenarios === undefined) return undefined;
  const rows = Object.entries(r.scenarios).map(([name, s]) => [
    name,
    formatCount(s.iterations),
    formatCount(s.dropped),
    formatCount(s.total),
    formatCount(s.failures),
    formatShare(s.failures, s.total),
    ...percentileCells(s.latency_ms),
  ]);
  const head = [
    'scenario',
    'iterations',
    'dropped',
    'requests',
    'failed',
    'error %',
    'p50 ms',
    'p95 ms',
    'p99 ms',
  ];
  return section(
    'scenarios',
    'Scenarios',
    table(head, rows, { numeric: [1, 2, 3, 4, 5, 6, 7, 8] }),
    true,
  );
}

function endpoints(r: RunResult): string {
  const rows = r.endpoints.map((e) => [
    e.name,
    formatCount(e.requests),
    formatCount(e.failures),
    formatShare(e.failures, e.requests),
    ...percentileCells(e.latency_ms),
    formatMs(e.latency_ms?.max),
    Object.entries(e.status_codes)
      .map(([code, n]) => `${code}: ${formatCount(n)}`)
      .join(', '),
  ]);
  const head = [
    'endpoint',
    'requests',
    'failed',
    'error %',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'status codes',
  ];
  return section(
    'endpoints',
    'Endpoints',
    table(head, rows, { numeric: [1, 2, 3, 4, 5, 6, 7] }),
    true,
  );
}

function configuration(config: Readonly<Record<string, unknown>>): string {
  const text =
    Object.keys(config).length === 0 ? '(defaults only)\n' : stringify(config, { lineWidth: 0 });
  return section(
    'config',
    'Configuration (secrets redacted)',
    `<pre>${escapeHtml(text)}</pre>`,
    true,
  );
}

/** `sha-256` of a script's text as CSP wants it. */
function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The whole report as one HTML document. */
export function renderHtmlReport(report: RunReport, options: HtmlReportOptions): string {
  const r = report.result;
  const { chart } = options;
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(chart.script)} ${cspHash(CHARTS_SCRIPT)}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const title = `barrage report: ${report.meta.target ?? 'scenario'} (${verdictOf(report).text})`;
  const sections = [
    summary(r),
    thresholds(report.thresholds, report.baseline),
    charts(r, report.baseline),
    distribution(r, report.baseline),
    figureCurves(r),
    outcomes(r),
    scenarios(r),
    endpoints(r),
    openModel(r),
    websocket(r),
    grpcSection(r),
    streams(r),
    llm(r),
    checks(r),
    sampleFailuresSection(r),
    customMetricsSection(r),
    auth(r),
    configuration(report.config),
  ].filter((s): s is string => s !== undefined);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    `<meta name="generator" content="barrage ${escapeHtml(options.version)}">`,
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<style>${chart.style}</style>`,
    `<style>${REPORT_STYLE}</style>`,
    '</head>',
    '<body>',
    header(report),
    '<main>',
    ...sections,
    '</main>',
    `<footer>Generated by barrage ${escapeHtml(options.version)}. Charts drawn with ${escapeHtml(chart.name)}. This file is self-contained: it loads nothing.</footer>`,
    `<script type="application/json" id="barrage-data">${scriptJson(toJsonResult(report))}</script>`,
    `<script type="application/json" id="barrage-series">${scriptJson(chartSeries(r))}</script>`,
    ...(report.baseline === undefined
      ? []
      : [
          `<script type="application/json" id="barrage-baseline">${scriptJson(report.baseline)}</script>`,
        ]),
    `<script>${chart.script}</script>`,
    `<script>${CHARTS_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
