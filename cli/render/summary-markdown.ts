/**
 * The Markdown summary (`--summary-md`, `report.summary_md`, and appended to
 * `$GITHUB_STEP_SUMMARY` when that is set): a heading with the verdict, the headline figures,
 * the thresholds, and the breakdowns that apply (endpoints when there are two or more, status
 * codes, error kinds, checks, WebSocket, streamed responses, custom metrics and the metrics model's warnings). GitHub-flavoured tables; ✅/❌ marks.
 *
 * User text (endpoint and check names) is escaped so that it stays plain text in a table cell:
 * ASCII punctuation that Markdown or HTML would read (\ ` * _ [ ] < > | ~ & #) gets a backslash,
 * line breaks become spaces. Threshold expressions are code spans. The text ends with a blank line, so that summaries
 * appended one after another (several steps of a job) stay apart.
 */
import { customMetricRows } from './custom-metrics-table.js';
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';
import {
  abortSeconds,
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
import type { BaselineOverlay, RunReport, ThresholdSummary } from './run-report.js';
import { BY_SCENARIO_HEAD, formatPerSecond, llmByScenario, llmSection } from './llm-figures.js';

/** `text` as plain text inside a Markdown table cell. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ').replace(/[\\`*_[\]<>|~&#]/g, '\\$&');
}

/**
 * `text` as a code span inside a table cell: fenced by one more backtick than its longest run of
 * backticks (padded with spaces when it starts or ends with one), `|` escaped as GFM tables need.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A GitHub-flavoured table; `right` names the right-aligned columns (by index). */
export function markdownTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[],
): string[] {
  const align = head.map((_, i) => (right.includes(i) ? '---:' : '---'));
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(align), ...rows.map(line)];
}

function heading(report: RunReport): string {
  const verdict = verdictOf(report);
  const mark = verdict.passed === undefined ? '' : verdict.passed ? '✅ ' : '❌ ';
  return `## ${mark}barrage: ${verdict.text}`;
}

function metaLine(report: RunReport): string {
  const r = report.result;
  const parts = [
    report.meta.target === undefined ? 'scenario' : escapeMarkdown(report.meta.target),
    escapeMarkdown(report.meta.load),
    `${(r.duration_ms / 1000).toFixed(2)} s`,
    `started ${r.started_at}`,
  ];
  if (report.thresholds?.aborted !== undefined) parts.push('**stopped by a threshold**');
  else if (r.interrupted) parts.push('**interrupted**');
  return parts.join(' · ');
}

function headline(r: RunResult): string[] {
  const l = r.latency_ms;
  return markdownTable(
    ['Requests', 'Failed', 'Requests/sec', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
    [
      [
        formatCount(r.total),
        `${formatCount(r.failures)} (${formatShare(r.failures, r.total)})`,
        r.requests_per_sec.toFixed(2),
        formatMs(l?.p50),
        formatMs(l?.p95),
        formatMs(l?.p99),
        formatMs(l?.max),
      ],
    ],
    [0, 1, 2, 3, 4, 5, 6],
  );
}

function thresholds(summary: ThresholdSummary, base: BaselineOverlay | undefined): string[] {
  const baseline = anyBaseline(summary.results);
  return [
    `### Thresholds: ${summary.passed}/${summary.total} passed`,
    '',
    ...(base === undefined ? [] : [`Baseline: ${escapeMarkdown(baselineSource(base))}`, '']),
    ...markdownTable(
      ['', 'Threshold', 'Actual', ...(baseline ? ['Baseline'] : []), 'Expected'],
      summary.results.map((t) => [
        t.pass ? '✅' : '❌',
        codeSpan(t.threshold),
        thresholdActual(t),
        ...(baseline ? [thresholdBaseline(t)] : []),
        codeSpan(thresholdExpected(t)),
      ]),
      baseline ? [2, 3] : [2],
    ),
    ...(summary.aborted === undefined
      ? []
      : [
          '',
          `Stopped the run (abort_on_fail): ${codeSpan(summary.aborted.threshold)} failed at ${abortSeconds(summary.aborted)}.`,
        ]),
  ];
}

/** A latency's p50, p95 and p99 cells, ms. */
function percentileCells(l: LatencySummary | undefined): string[] {
  return [formatMs(l?.p50), formatMs(l?.p95), formatMs(l?.p99)];
}

/** Named scenarios, one row each; nothing in a run of the top-level form. */
function scenarios(r: RunResult): string[] {
  if (r.scenarios === undefined) return [];
  return [
    '### Scenarios',
    '',
    ...markdownTable(
      ['Scenario', 'Iterations', 'Dropped', 'Requests', 'Failed', 'p50 ms', 'p95 ms', 'p99 ms'],
      Object.entries(r.scenarios).map(([name, s]) => [
        escapeMarkdown(name),
        formatCount(s.iterations),
        formatCount(s.dropped),
        formatCount(s.total),
        formatCount(s.failures),
        ...percentileCells(s.latency_ms),
      ]),
      [1, 2, 3, 4, 5, 6, 7],
    ),
  ];
}

function endpoints(r: RunResult): string[] {
  if (r.endpoints.length < 2) return [];
  return [
    '### Endpoints',
    '',
    ...markdownTable(
      ['Endpoint', 'Requests', 'Failed', 'p50 ms', 'p95 ms', 'p99 ms'],
      r.endpoints.map((e) => [
        escapeMarkdown(e.name),
        formatCount(e.requests),
        formatCount(e.failures),
        ...percentileCells(e.latency_ms),
      ]),
      [1, 2, 3, 4, 5],
    ),
  ];
}

function counts(title: string, head: string, entries: [string, number][], whole: number): string[] {
  if (entries.length === 0) return [];
  const sum = entries.reduce((acc, [, n]) => acc + n, 0);
  const rows = entries.map(([k, n]) => [
    escapeMarkdown(k),
    formatCount(n),
    formatShare(n, Math.max(whole, sum)),
  ]);
  return [`### ${title}`, '', ...markdownTable([head, 'Count', 'Share'], rows, [1, 2])];
}

function checks(r: RunResult): string[] {
  if (r.checks === undefined) return [];
  const rows = Object.entries(r.checks.by_name).map(([name, c]) => [
    c.fails === 0 ? '✅' : '❌',
    escapeMarkdown(name),
    formatCount(c.passes),
    formatCount(c.fails),
  ]);
  return ['### Checks', '', ...markdownTable(['', 'Check', 'Passes', 'Fails'], rows, [2, 3])];
}

function websocket(r: RunResult): string[] {
  const ws = r.websocket;
  if (ws === undefined) return [];
  return [
    '### WebSocket',
    '',
    ...markdownTable(
      ['Sessions', 'Failed', 'Sent', 'Received', 'Connecting p95 ms', 'Round trip p95 ms'],
      [
        [
          formatCount(ws.sessions),
          formatCount(ws.failures),
          formatCount(ws.msgs_sent),
          formatCount(ws.msgs_received),
          formatMs(ws.connecting_ms?.p95),
          formatMs(ws.message_rtt_ms?.p95),
        ],
      ],
      [0, 1, 2, 3, 4, 5],
    ),
  ];
}

/** LLM endpoints: timings p50, p95 and p99, tokens and output tokens per second, goodput. */
function llm(r: RunResult): string[] {
  const section = llmSection(r);
  if (section === undefined) return [];
  const rows = section.rows.map(([label, l]) => [
    label,
    formatMs(l?.p50),
    formatMs(l?.p95),
    formatMs(l?.p99),
  ]);
  const good = section.goodput;
  return [
    '### LLM endpoints',
    '',
    ...markdownTable(['', 'p50 ms', 'p95 ms', 'p99 ms'], rows, [1, 2, 3]),
    '',
    `Tokens: ${formatCount(section.inputTokens)} input, ${formatCount(section.outputTokens)} output (${formatPerSecond(section.outputPerSecond)} output tokens/s; per request p50 ${formatPerSecond(section.perRequest?.p50)}).` +
      (good === undefined
        ? ''
        : ` Goodput: ${formatCount(good.count)} of ${formatCount(good.total)} requests met the SLOs (${formatShare(good.count, good.total)}, ${formatPerSecond(good.perSecond)} good requests/s).`),
    ...llmScenarios(r),
  ];
}

/** The LLM figures of each scenario side by side (a sweep's levels), when two or more had them. */
function llmScenarios(r: RunResult): string[] {
  const rows = llmByScenario(r);
  if (rows === undefined) return [];
  return ['', ...markdownTable(BY_SCENARIO_HEAD, rows, [1, 2, 3, 4, 5, 6, 7])];
}

/** Streamed responses: each kind's count, time to its first piece and gap, p50 and p95. */
function streams(r: RunResult): string[] {
  const rows: string[][] = [];
  const row = (
    kind: string,
    count: number,
    first: LatencySummary | undefined,
    gap: LatencySummary | undefined,
  ): string[] => [
    kind,
    formatCount(count),
    formatMs(first?.p50),
    formatMs(first?.p95),
    formatMs(gap?.p50),
    formatMs(gap?.p95),
  ];
  if (r.sse !== undefined)
    rows.push(row('events', r.sse.events, r.sse.time_to_first_event_ms, r.sse.event_gap_ms));
  if (r.stream !== undefined)
    rows.push(
      row('chunks', r.stream.chunks, r.stream.time_to_first_chunk_ms, r.stream.chunk_gap_ms),
    );
  if (rows.length === 0) return [];
  return [
    '### Streamed responses',
    '',
    ...markdownTable(
      ['', 'Received', 'First p50 ms', 'First p95 ms', 'Gap p50 ms', 'Gap p95 ms'],
      rows,
      [1, 2, 3, 4, 5],
    ),
  ];
}

/** Custom metrics (custom-metrics-table.ts), and the warnings of the metrics model's bounds. */
function customMetrics(r: RunResult): string[] {
  const out: string[] = [];
  if (r.metrics !== undefined && Object.keys(r.metrics).length > 0) {
    const rows = customMetricRows(r.metrics).map(([name, type, figures]) => [
      escapeMarkdown(name.trim()),
      type,
      escapeMarkdown(figures),
    ]);
    out.push('### Custom metrics', '', ...markdownTable(['Metric', 'Type', 'Figures'], rows, []));
  }
  for (const warning of r.warnings ?? []) out.push('', `> ⚠️ ${escapeMarkdown(warning)}`);
  return out;
}

/** The Markdown summary of a run, ending with a blank line. */
export function renderSummaryMarkdown(report: RunReport): string {
  const r = report.result;
  const blocks: string[][] = [
    [heading(report)],
    [metaLine(report)],
    headline(r),
    report.thresholds === undefined ? [] : thresholds(report.thresholds, report.baseline),
    scenarios(r),
    endpoints(r),
    counts('Status codes', 'Status', sortedStatusCodes(r), r.total),
    counts('Errors', 'Error kind', sortedErrors(r), r.total),
    checks(r),
    websocket(r),
    streams(r),
    llm(r),
    customMetrics(r),
  ];
  return (
    blocks
      .filter((b) => b.length > 0)
      .map((b) => b.join('\n'))
      .join('\n\n') + '\n\n'
  );
}
