/**
 * The terminal report (spec §2.8, DESIGN.md §7). The spec's block comes first, exactly:
 *
 *   --- Load Test Results ---
 *   Total Requests: 1000              labels + ':' padded to 16 columns, so values line up
 *   Successful:     990
 *   Failed:         10
 *   Duration:       10.00s            seconds, two decimals
 *   Requests/sec:   99.98             two decimals
 *   Latency:
 *     Min:  1.23ms                    two-space indent, labels + ':' padded to 6 columns,
 *     Max:  45.67ms                   ms with two decimals, `n/a` when nothing completed
 *     Mean: 3.21ms
 *     P50:  2.50ms
 *     P90:  5.00ms
 *     P99:  12.00ms
 *   Thresholds:                       only when thresholds are defined
 *     ✓ http_req_duration:p95 < 300: 12.34 < 300.00
 *     ✗ http_req_failed:rate < 0.01: no data
 *   Threshold Summary: 1/2 passed
 *
 * Then, with no blank line: `Aborted: threshold … failed at 1.50 s …` when an `abort_on_fail`
 * threshold stopped the run, else `Interrupted: …` when it was stopped early; the bytes on the
 * wire (k6's data_received and data_sent: response and request bodies, compressed ones as sent),
 * each in all, in binary units and per second of the run, the decoded size of compressed
 * responses when there were some:
 *
 *   Data received: 123,456 B (120.6 KiB, 12.1 KiB/s; 480.0 KiB decoded)
 *   Data sent: 267 B (27 B/s)
 *
 * the open model's
 * block (latency from the intended send time, late and dropped permits) when it has anything to
 * say; `Retries: N` when N > 0; the k6-style lines of time to first byte, iteration duration
 * and virtual users allocated, when measured:
 *
 *   Waiting (TTFB): p50 50.12ms, p95 51.30ms
 *   Connecting: p50 0.21ms, p95 0.40ms        (requests that opened a connection)
 *   TLS handshaking: p50 3.10ms, p95 4.02ms   (https connections)
 *   SSE events: 1,000                          (stream endpoints)
 *   SSE time to first event: p50 1.10ms, p95 2.30ms
 *   SSE event gap: p50 50.02ms, p95 50.90ms
 *   Stream chunks: 2,000                       (stream: chunks endpoints)
 *   Stream time to first chunk: p50 1.02ms, p95 2.10ms
 *   Stream chunk gap: p50 20.01ms, p95 20.80ms
 *   Iteration duration: p50 201.00ms, p95 204.50ms
 *   Virtual users: 10 allocated, 2–10 active (10 at the end)
 *   HTTP debug log: 12 lines written, 3 dropped    (with --http-debug)
 *
 * Then each breakdown table after a blank line, and last, after a
 * blank line, the warning when the run proved nothing (no request sent, none succeeded, every
 * iteration failed: it exits 1),
 * and those of the metrics model's bounds (folded tag sets and request names, values left out).
 * Color (ANSI, only when asked): green ✓ lines, red ✗ lines and the warning; nothing else.
 */
import type { HttpDebugCounts } from '../../runtime/raw-result.js';
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';
import { hasGroup, resultOf } from '../../runtime/metrics/figure-results.js';
import { emptyRunCause } from '../../runtime/metrics/empty-run.js';
import { FIGURES, groupMembers, shownIn, type Figure } from '../../model/metrics/metric-figures.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';
import type { RunReport, ThresholdSummary } from './run-report.js';
import { plainTable, renderBreakdowns } from './tables.js';
import {
  abortText,
  baselineSource,
  formatBytes,
  formatCount,
  formatShare,
} from './report-figures.js';
import { BY_SCENARIO_HEAD, formatPerSecond, llmByScenario, llmSection } from './llm-figures.js';

/** How the text report is drawn. */
export interface TextReportOptions {
  /** ANSI colors on the threshold marks and the warning. */
  readonly color: boolean;
}

const FIELD_WIDTH = 16;
/** Unsent causes listed in the text report (the JSON report has them all). */
const MAX_CAUSE_LINES = 10;
const LATENCY_WIDTH = 6;
const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
const RESET = '\u001b[0m';

/** The report's first heading. */
export const REPORT_HEADING = '--- Load Test Results ---';

/** The line printed after the block when the run was stopped early. */
export const INTERRUPTED_LINE =
  'Interrupted: the run was stopped early (Ctrl+C); figures cover what completed.';

/**
 * The line printed after the block when the run stopped early: which `abort_on_fail` threshold
 * stopped it and when, or INTERRUPTED_LINE; undefined when it ran to its end.
 */
export function stoppedLine(report: RunReport): string | undefined {
  const aborted = report.thresholds?.aborted;
  if (aborted !== undefined)
    return `Aborted: threshold ${abortText(aborted)} and stopped the run (abort_on_fail); figures cover what completed.`;
  if (!report.result.interrupted) return undefined;
  const stops = report.stops ?? [];
  if (stops.length === 0) return INTERRUPTED_LINE;
  const by = stops.map(({ signal, segment }) => {
    const name = signal === 'SIGINT' ? 'Ctrl+C (SIGINT)' : signal;
    return segment.count > 1 ? `${name} (segment ${segment.index}/${segment.count})` : name;
  });
  return `Interrupted: the run was stopped early by ${by.join(', ')}; figures cover what completed.`;
}

function paint(text: string, code: string, color: boolean): string {
  return color ? `${code}${text}${RESET}` : text;
}

function field(label: string, value: string): string {
  return `${`${label}:`.padEnd(FIELD_WIDTH)}${value}`;
}

function latencyLine(label: string, value: number | undefined): string {
  const shown = value === undefined ? 'n/a' : `${value.toFixed(2)}ms`;
  return `  ${`${label}:`.padEnd(LATENCY_WIDTH)}${shown}`;
}

/** The spec's figures: totals, duration, throughput and the `Latency:` block. */
function summaryLines(result: RunResult): string[] {
  const latency: LatencySummary | undefined = result.latency_ms;
  return [
    REPORT_HEADING,
    field('Total Requests', String(result.total)),
    field('Successful', String(result.successes)),
    field('Failed', String(result.failures)),
    field('Duration', `${(result.duration_ms / 1000).toFixed(2)}s`),
    field('Requests/sec', result.requests_per_sec.toFixed(2)),
    'Latency:',
    latencyLine('Min', latency?.min),
    latencyLine('Max', latency?.max),
    latencyLine('Mean', latency?.mean),
    latencyLine('P50', latency?.p50),
    latencyLine('P90', latency?.p90),
    latencyLine('P99', latency?.p99),
  ];
}

/**
 * `✓ <expression>: <actual> <operator> <expected>`, or `✗ <expression>: no data`; a relative
 * threshold adds `(baseline <value>)`, the baseline's figure its limit came from.
 */
export function thresholdLine(result: ThresholdResult, color: boolean): string {
  const mark = result.pass ? '✓' : '✗';
  const comparison =
    result.actual === null
      ? 'no data'
      : `${result.actual.toFixed(2)} ${result.operator} ${result.expected.toFixed(2)}`;
  const baseline = result.baseline === undefined ? '' : ` (baseline ${result.baseline.toFixed(2)})`;
  return paint(
    `  ${mark} ${result.threshold}: ${comparison}${baseline}`,
    result.pass ? GREEN : RED,
    color,
  );
}

function thresholdLines(report: RunReport, summary: ThresholdSummary, color: boolean): string[] {
  return [
    'Thresholds:',
    ...(report.baseline === undefined ? [] : [`  Baseline: ${baselineSource(report.baseline)}`]),
    ...summary.results.map((r) => thresholdLine(r, color)),
    `Threshold Summary: ${summary.passed}/${summary.total} passed`,
  ];
}

/**
 * Bytes received and sent: exact, then in binary units from 1 KiB, per second of the run, and
 * what compressed responses decoded to.
 */
function dataLines(result: RunResult): string[] {
  const seconds = result.duration_ms / 1000;
  const amount = (bytes: number, decoded = 0): string => {
    const sized = bytes >= 1024 ? formatBytes(bytes) : undefined;
    const rate = seconds > 0 ? `${perSecond(bytes / seconds)}/s` : undefined;
    const shown = [sized, rate].filter((part) => part !== undefined).join(', ');
    const also = decoded > 0 ? `${shown === '' ? '' : '; '}${formatBytes(decoded)} decoded` : '';
    return `${formatCount(bytes)} B${shown + also === '' ? '' : ` (${shown}${also})`}`;
  };
  return [
    `Data received: ${amount(result.bytes_received, result.bytes_decoded)}`,
    `Data sent: ${amount(result.bytes_sent)}`,
  ];
}

/** A byte rate as formatBytes shows it, whole bytes below 1 KiB. */
function perSecond(bytes: number): string {
  return formatBytes(bytes < 1024 ? Math.round(bytes) : bytes);
}

/** The open model's figures: latency from the intended send time, late and dropped permits. */
function openModelLines(result: RunResult): string[] {
  const intended = result.intended_latency_ms;
  if (intended === undefined && result.late === 0 && result.dropped === 0) return [];
  return [
    'Latency from intended send time (coordinated omission corrected):',
    latencyLine('P50', intended?.p50),
    latencyLine('P90', intended?.p90),
    latencyLine('P99', intended?.p99),
    latencyLine('Max', intended?.max),
    `  Late permits: ${result.late}`,
    `  Dropped permits: ${result.dropped}`,
  ];
}

/**
 * The figure families' figures (model/metrics/metric-figures.ts) and virtual users: a trend's
 * line `label: p50 …, p95 …` when it has samples, a counter's `label: count`; a group's counter
 * first, then its trends, when the run had the group.
 */
function k6Lines(result: RunResult): string[] {
  const lines: string[] = [];
  const line = (figure: Figure): void => {
    const value = resultOf(result, figure);
    if (value === undefined) return;
    const label = figure.spec.label;
    if (typeof value === 'number') lines.push(`${label}: ${formatCount(value)}`);
    else if ('total' in value) {
      const share = value.rate === undefined ? '-' : `${(value.rate * 100).toFixed(2)}%`;
      lines.push(`${label}: ${share} (${formatCount(value.count)} of ${formatCount(value.total)})`);
    } else lines.push(`${label}: p50 ${value.p50.toFixed(2)}ms, p95 ${value.p95.toFixed(2)}ms`);
  };
  const groups = new Set<string>();
  for (const figure of FIGURES) {
    // The LLM figures have a section of their own (llmLines).
    if (!shownIn(figure, 'run') || figure.group === 'llm') continue;
    if (figure.group === undefined) line(figure);
    else if (!groups.has(figure.group)) {
      groups.add(figure.group);
      if (hasGroup(result, figure.group)) groupMembers(figure.group).forEach(line);
    }
  }
  if (result.vus_max !== undefined && result.vus_max > 0) {
    const vus = result.vus;
    const active =
      vus === undefined ? '' : `, ${vus.min}–${vus.max} active (${vus.value} at the end)`;
    lines.push(`Virtual users: ${formatCount(result.vus_max)} allocated${active}`);
  }
  return lines;
}

/** The LLM endpoints' figures (llm-figures.ts): timings p50, p90 and p99, tokens, goodput. */
function llmLines(result: RunResult): string[] {
  const llm = llmSection(result);
  if (llm === undefined) return [];
  const lines = ['LLM endpoints (token streams):'];
  for (const [label, l] of llm.rows)
    if (l !== undefined)
      lines.push(
        `  ${label}: p50 ${l.p50.toFixed(2)}ms, p90 ${l.p90.toFixed(2)}ms, p99 ${l.p99.toFixed(2)}ms`,
      );
  lines.push(
    `  Tokens: ${formatCount(llm.inputTokens)} input, ${formatCount(llm.outputTokens)} output (${formatPerSecond(llm.outputPerSecond)} output tokens/s)`,
  );
  const each = llm.perRequest;
  if (each !== undefined)
    lines.push(
      `  Output tokens/s per request: p50 ${each.p50.toFixed(2)}, mean ${each.mean.toFixed(2)}, min ${each.min.toFixed(2)}`,
    );
  const good = llm.goodput;
  if (good !== undefined)
    lines.push(
      `  Goodput: ${formatCount(good.count)} of ${formatCount(good.total)} requests met the SLOs (${formatShare(good.count, good.total)}, ${formatPerSecond(good.perSecond)} good requests/s)`,
    );
  const byScenario = llmByScenario(result);
  if (byScenario !== undefined)
    lines.push(
      '  By scenario:',
      ...plainTable(BY_SCENARIO_HEAD, byScenario)
        .split('\n')
        .map((l) => `  ${l}`),
    );
  return lines;
}

/** The warning for a run that proved nothing (runtime/metrics/empty-run.ts); undefined otherwise. */
export function emptyRunWarning(result: RunResult): string | undefined {
  const cause = emptyRunCause(result);
  return cause === undefined ? undefined : `WARNING: the run failed (exit 1): ${cause}.`;
}

/**
 * Requests never sent and failed scripted iterations, apart from the request counts above, with
 * their most frequent causes first.
 */
export function unsentLines(result: RunResult): string[] {
  const lines: string[] = [];
  if (result.unsent > 0) {
    lines.push(
      `Unsent: ${formatCount(result.unsent)} requests were never sent (not in the counts above)`,
    );
    const causes = Object.entries(result.unsent_causes).sort((a, b) => b[1] - a[1]);
    for (const [cause, n] of causes.slice(0, MAX_CAUSE_LINES))
      lines.push(`  ${formatCount(n).padStart(12)}  ${cause}`);
    if (causes.length > MAX_CAUSE_LINES)
      lines.push(`  … ${causes.length - MAX_CAUSE_LINES} more causes in the JSON report`);
  }
  if (result.iterations_failed > 0) {
    const kinds = Object.entries(result.iteration_errors).map(([k, n]) => `${k} ${formatCount(n)}`);
    lines.push(`Failed iterations: ${formatCount(result.iterations_failed)} (${kinds.join(', ')})`);
  }
  return lines;
}

/** A warning when most requests were never sent, naming the most frequent cause. */
export function unsentWarning(result: RunResult): string | undefined {
  if (result.unsent <= result.total) return undefined;
  const [cause] = Object.entries(result.unsent_causes).sort((a, b) => b[1] - a[1])[0]!;
  return `WARNING: most requests were never sent (${formatCount(result.unsent)} unsent, ${formatCount(result.total)} sent); the first cause: ${cause}.`;
}

/** What the HTTP debug log wrote, and dropped past its bounds. */
function httpDebugLine(counts: HttpDebugCounts): string {
  const lines = (n: number): string => `${formatCount(n)} line${n === 1 ? '' : 's'}`;
  return `HTTP debug log: ${lines(counts.written)} written, ${formatCount(counts.dropped)} dropped`;
}

/** The whole terminal report, ending with a newline. */
export function renderTextReport(report: RunReport, options: TextReportOptions): string {
  const { result } = report;
  const lines = summaryLines(result);
  // A loop, not push(...list): a spread over thousands of thresholds can overflow the stack.
  if (report.thresholds !== undefined)
    for (const line of thresholdLines(report, report.thresholds, options.color)) lines.push(line);
  const stopped = stoppedLine(report);
  if (stopped !== undefined) lines.push(stopped);
  lines.push(...dataLines(result));
  lines.push(...openModelLines(result));
  if (result.retries > 0) lines.push(`Retries: ${result.retries}`);
  if (result.redirects > 0) lines.push(`Redirects followed: ${result.redirects}`);
  lines.push(...k6Lines(result));
  lines.push(...llmLines(result));
  if (report.httpDebug !== undefined) lines.push(httpDebugLine(report.httpDebug));
  lines.push(...unsentLines(result));
  for (const section of renderBreakdowns(result)) lines.push('', section);
  for (const warning of [unsentWarning(result), emptyRunWarning(result)])
    if (warning !== undefined) lines.push('', paint(warning, RED, options.color));
  for (const warning of result.warnings ?? [])
    lines.push('', paint(`WARNING: ${warning}.`, RED, options.color));
  return lines.join('\n') + '\n';
}
