/**
 * The breakdown tables under the text report (DESIGN.md §7): endpoints, status codes, error kinds,
 * WebSocket, checks, and the auth line. Plain cli-table3 boxes with no colors, sized to fit 80
 * columns: long names are cut to the width left over by the number columns and end with `…`.
 *
 * Width of a cli-table3 table: Σ(content width + 2 padding) over the columns + (columns + 1)
 * borders. The name column gets TABLE_WIDTH minus everything else, never less than MIN_NAME.
 */
import Table from 'cli-table3';
import { renderCustomMetricsTable } from './custom-metrics-table.js';
import type {
  AuthResult,
  ChecksResult,
  EndpointResult,
  LatencySummary,
  RunResult,
  TagBreakdown,
  WsResult,
} from '../../runtime/metrics/run-result.js';
import { sortedErrors, sortedStatusCodes } from './report-figures.js';

/** The terminal width the tables are sized for. */
export const TABLE_WIDTH = 80;

const MIN_NAME = 10;
const PADDING = 2;

type Align = 'left' | 'right';

/** A plain table: no colors in heads or borders; every column but the first right-aligned. */
export function plainTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const colAligns: Align[] = head.map((_, i) => (i === 0 ? 'left' : 'right'));
  const table = new Table({
    head: [...head],
    colAligns,
    style: { head: [], border: [], compact: true },
  });
  for (const row of rows) table.push([...row]);
  return table.toString();
}

/** A table without a head: label on the left, value on the right. */
function keyValueTable(rows: readonly (readonly [string, string])[]): string {
  const table = new Table({
    colAligns: ['left', 'right'],
    style: { head: [], border: [], compact: true },
  });
  for (const [label, value] of rows) table.push([label, value]);
  return table.toString();
}

/** `name` cut to `width` characters (code points), ending with `…` when cut. */
export function truncateName(name: string, width: number): string {
  const chars = Array.from(name);
  if (chars.length <= width) return name;
  return chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}

/** The widest name that keeps a table with these other columns within TABLE_WIDTH. */
function nameBudget(head: readonly string[], rows: readonly (readonly string[])[]): number {
  let used = head.length + 1 + PADDING;
  for (let col = 1; col < head.length; col++) {
    const widths = rows.map((row) => (row[col] ?? '').length);
    used += Math.max(head[col]?.length ?? 0, ...widths) + PADDING;
  }
  return Math.max(MIN_NAME, TABLE_WIDTH - used);
}

/** Rows whose first cell (a name) is cut to fit the table in TABLE_WIDTH. */
function fitNames(head: readonly string[], rows: readonly (readonly string[])[]): string[][] {
  const budget = nameBudget(head, rows);
  return rows.map(([name = '', ...rest]) => [truncateName(name, budget), ...rest]);
}

function ms(value: number | undefined): string {
  return value === undefined ? 'n/a' : value.toFixed(2);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(1)}%`;
}

/** Count tables share one denominator: requests made, or the counts' sum if that is larger. */
function countTable(
  head: string,
  counts: Readonly<Record<string, number>>,
  total: number,
): string | undefined {
  const entries = Object.entries(counts);
  if (entries.length === 0) return undefined;
  const sum = entries.reduce((acc, [, n]) => acc + n, 0);
  const whole = Math.max(total, sum);
  const rows = entries.map(([key, n]) => [key, String(n), percent(n, whole)]);
  return plainTable([head, 'count', 'share'], rows);
}

/** Status codes (ascending) with their counts and share of requests; undefined when none. */
export function renderStatusCodeTable(result: RunResult): string | undefined {
  const sorted = Object.fromEntries(sortedStatusCodes(result));
  const table = countTable('status', sorted, result.total);
  return table === undefined ? undefined : `Status codes:\n${table}`;
}

/** Error kinds (most frequent first) with their counts and share of requests; undefined when none. */
export function renderErrorTable(result: RunResult): string | undefined {
  const sorted = Object.fromEntries(sortedErrors(result));
  const table = countTable('error', sorted, result.total);
  return table === undefined ? undefined : `Errors:\n${table}`;
}

/** Marks a WebSocket endpoint's name in the endpoint table. */
const WS_MARK = ' (ws)';
/** The note under an endpoint table that has WebSocket endpoints. */
export const WS_ENDPOINT_NOTE =
  '(ws) WebSocket endpoint: requests are sessions, latency is the session duration.';

/** The columns of a table of requests by name: the name's column, counts and percentiles. */
function requestHead(name: string): string[] {
  return [name, 'requests', 'failures', 'p50 ms', 'p95 ms', 'p99 ms'];
}

/** A line of requestHead's table. */
function requestRow(
  name: string,
  r: {
    readonly requests: number;
    readonly failures: number;
    readonly latency_ms: LatencySummary | undefined;
  },
): string[] {
  const latency = r.latency_ms;
  return [
    name,
    String(r.requests),
    String(r.failures),
    ms(latency?.p50),
    ms(latency?.p95),
    ms(latency?.p99),
  ];
}

/**
 * One line per endpoint with its latency percentiles; undefined unless there are two or more.
 * WebSocket endpoints are marked `(ws)` (the mark survives name cutting) and explained below.
 */
export function renderEndpointTable(endpoints: readonly EndpointResult[]): string | undefined {
  if (endpoints.length < 2) return undefined;
  const head = requestHead('endpoint');
  const rows = endpoints.map((e) => requestRow(e.name, e));
  const budget = nameBudget(head, rows);
  const fitted = rows.map(([name = '', ...rest], i) => {
    const ws = endpoints[i]!.websocket !== undefined;
    const cut = ws
      ? truncateName(name, Math.max(1, budget - WS_MARK.length)) + WS_MARK
      : truncateName(name, budget);
    return [cut, ...rest];
  });
  const note = endpoints.some((e) => e.websocket !== undefined) ? `\n${WS_ENDPOINT_NOTE}` : '';
  return `Endpoints:\n${plainTable(head, fitted)}${note}`;
}

/** WebSocket sessions, messages and timings as a two-column table. */
export function renderWsTable(ws: WsResult): string {
  const rows: [string, string][] = [
    ['sessions', String(ws.sessions)],
    ['failures', String(ws.failures)],
    ['messages sent', String(ws.msgs_sent)],
    ['messages received', String(ws.msgs_received)],
    ['  taken by a step', String(ws.msgs_taken)],
    ['  skipped', String(ws.msgs_skipped)],
    ...(ws.listen_rate === undefined
      ? []
      : ([['pushes/s while listening', ws.listen_rate.toFixed(1)]] as [string, string][])),
    ['connecting p50 ms', ms(ws.connecting_ms?.p50)],
    ['connecting p95 ms', ms(ws.connecting_ms?.p95)],
    ['message rtt p50 ms', ms(ws.message_rtt_ms?.p50)],
    ['message rtt p95 ms', ms(ws.message_rtt_ms?.p95)],
    ['message rtt p99 ms', ms(ws.message_rtt_ms?.p99)],
    ['session p50 ms', ms(ws.session_duration_ms?.p50)],
    ['session p95 ms', ms(ws.session_duration_ms?.p95)],
  ];
  const failed = Object.entries(ws.step_failures).sort((a, b) => b[1] - a[1]);
  const steps =
    failed.length === 0
      ? ''
      : `\nFailed steps:\n${keyValueTable(failed.map(([cause, n]) => [cause, String(n)]))}`;
  return `WebSocket:\n${keyValueTable(rows)}${steps}`;
}

/** Checks by name, then an `all checks` line when there is not exactly one name. */
export function renderChecksTable(checks: ChecksResult): string {
  const head = ['check', 'passes', 'fails', 'rate'];
  const named = Object.entries(checks.by_name);
  const rows = named.map(([name, c]) => [
    name,
    String(c.passes),
    String(c.fails),
    percent(c.passes, c.passes + c.fails),
  ]);
  if (named.length !== 1) {
    const rate = checks.rate === undefined ? 'n/a' : `${(checks.rate * 100).toFixed(1)}%`;
    rows.push(['all checks', String(checks.passes), String(checks.fails), rate]);
  }
  return `Checks:\n${plainTable(head, fitNames(head, rows))}`;
}

/** One line: `Auth: N token fetches, N failed, p95 X.XXms`. */
export function renderAuthLine(auth: AuthResult): string {
  const p95 = auth.latency_ms === undefined ? 'n/a' : `${auth.latency_ms.p95.toFixed(2)}ms`;
  const fetches = `${auth.token_fetches} token fetch${auth.token_fetches === 1 ? '' : 'es'}`;
  return `Auth: ${fetches}, ${auth.failures} failed, p95 ${p95}`;
}

/**
 * One line per named scenario: its iterations (and those dropped for want of a virtual user),
 * requests, failures, rate and latency percentiles; undefined in a run of the top-level form.
 */
export function renderScenarioTable(
  scenarios: Readonly<Record<string, RunResult>> | undefined,
): string | undefined {
  if (scenarios === undefined) return undefined;
  const head = [
    'scenario',
    'iterations',
    'dropped',
    'requests',
    'failures',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
  ];
  const rows = Object.entries(scenarios).map(([name, r]) => [
    name,
    String(r.iterations),
    String(r.dropped),
    String(r.total),
    String(r.failures),
    r.requests_per_sec.toFixed(1),
    ms(r.latency_ms?.p50),
    ms(r.latency_ms?.p95),
    ms(r.latency_ms?.p99),
  ]);
  return `Scenarios:\n${plainTable(head, fitNames(head, rows))}`;
}

/** Requests by the values of one tag: a line per value, as the endpoint table. */
export function renderTagTable(breakdown: TagBreakdown): string {
  const head = requestHead(breakdown.key);
  const rows = breakdown.values.map((v) => requestRow(v.value, v));
  const left =
    breakdown.values_left_out === 0 ? '' : `\n(${breakdown.values_left_out} more values not shown)`;
  const table = rows.length === 0 ? '  (no requests)' : plainTable(head, fitNames(head, rows));
  return `By ${breakdown.key}:\n${table}${left}`;
}

/**
 * Every breakdown that applies to this run, in order: scenarios, endpoints, status codes, errors,
 * ws, checks, custom metrics, auth.
 */
export function renderBreakdowns(result: RunResult): string[] {
  const sections = [
    renderScenarioTable(result.scenarios),
    renderEndpointTable(result.endpoints),
    ...(result.by_tag ?? []).map(renderTagTable),
    renderStatusCodeTable(result),
    renderErrorTable(result),
    result.websocket === undefined ? undefined : renderWsTable(result.websocket),
    result.checks === undefined ? undefined : renderChecksTable(result.checks),
    renderCustomMetricsTable(result.metrics),
    result.auth === undefined ? undefined : renderAuthLine(result.auth),
  ];
  return sections.filter((s): s is string => s !== undefined);
}
