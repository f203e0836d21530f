/**
 * The blocks under the dashboard's gauges, each a heading and rows that can be cut to fit:
 * status codes and error kinds (side by side on wide screens), the LLM line (llm-live.ts),
 * endpoints with their live
 * percentiles, thresholds with ✓/✗, and the latest errors. Pure; screen.ts places them.
 */
import type { CountRow, DashboardModel, EndpointRow } from './dashboard-model.js';
import type { ErrorEvent } from './error-feed.js';
import { formatPercent, formatTenths } from './format.js';
import { fit, fitLine, lineWidth, span, type Line, type Style } from './styled-line.js';
import { llmSection } from './llm-live.js';

/** Rows the endpoints get before other sections' extra rows (worst first: dashboard-model.ts). */
export const ENDPOINT_FLOOR = 5;

/** From this width the status-code and error tables stand side by side. */
export const SIDE_BY_SIDE = 64;

/** A block of lines below the gauges. */
export interface Section {
  /** 0 is the most important: it gets spare rows first and is left out last. */
  readonly priority: number;
  readonly head: readonly Line[];
  /** The rows cut to `n` lines (n ≥ 1; the last says how many were left out when cut). */
  readonly body: (n: number) => Line[];
  /** Rows the section has to show (at least 1: an empty section says so). */
  readonly size: number;
  /** Rows it gets, when it has them, before spare rows go round (default 1). */
  readonly floor?: number;
}

/** The sections of a frame, in screen order. */
export function sectionsOf(model: DashboardModel, width: number): Section[] {
  const sections: Section[] = [];
  if (width >= SIDE_BY_SIDE) sections.push(countsSideBySide(model, width));
  else {
    sections.push(countSection('status', model.statusCodes, width, NO_RESPONSES));
    sections.push(countSection('error', model.errorKinds, width, NO_ERRORS));
  }
  if (model.scenarios.length > 0)
    sections.push(rowSection('scenario', model.scenarios, width, 'no scenario started yet', 1));
  if (model.llm !== undefined) sections.push(llmSection(model.llm, width));
  sections.push(rowSection('endpoint', model.endpoints, width, 'no endpoints', ENDPOINT_FLOOR));
  if (model.thresholds.length > 0) sections.push(thresholdSection(model, width));
  sections.push(errorFeedSection(model.latestErrors, width));
  return sections;
}

const NO_RESPONSES = 'no responses yet';
const NO_ERRORS = 'no errors';
const COUNT_WIDTH = 9;
const SHARE_WIDTH = 8;
const NUMBER_WIDTH = 9;
const ACTUAL_WIDTH = 12;
const TIME_WIDTH = 9;

/**
 * `rows` cut to n lines; when cut, the last one says how many are left out, unless n is 1: the
 * first row is worth more than a count.
 */
function clip(rows: readonly Line[], n: number, empty: string): Line[] {
  return clipLazy(rows, n, (row) => row, empty);
}

/** clip() of rows turned into lines only when shown. */
function clipLazy<T>(rows: readonly T[], n: number, line: (row: T) => Line, empty: string): Line[] {
  if (rows.length === 0) return [[span(empty, 'dim')]];
  if (rows.length <= n || n === 1) return rows.slice(0, n).map(line);
  return [...rows.slice(0, n - 1).map(line), [span(`… ${rows.length - n + 1} more`, 'dim')]];
}

function countHead(title: string, width: number): Line {
  const key = width - COUNT_WIDTH - SHARE_WIDTH;
  const text =
    fit(title, key) + fit('count', COUNT_WIDTH, 'right') + fit('share', SHARE_WIDTH, 'right');
  return [span(text, 'bold')];
}

function countRows(rows: readonly CountRow[], width: number, style: Style | undefined): Line[] {
  const key = width - COUNT_WIDTH - SHARE_WIDTH;
  return rows.map((r) => [
    span(fit(r.key, key), style),
    span(
      fit(String(r.count), COUNT_WIDTH, 'right') +
        fit(formatPercent(r.share), SHARE_WIDTH, 'right'),
    ),
  ]);
}

function countSection(
  title: 'status' | 'error',
  rows: readonly CountRow[],
  width: number,
  empty: string,
): Section {
  const lines = countRows(rows, width, title === 'error' ? 'red' : undefined);
  return {
    priority: 2,
    head: [countHead(title, width)],
    body: (n) => clip(lines, n, empty),
    size: Math.max(1, lines.length),
  };
}

function countsSideBySide(model: DashboardModel, width: number): Section {
  const half = Math.floor((width - 3) / 2);
  const rest = width - 3 - half;
  const left = countRows(model.statusCodes, half, undefined);
  const right = countRows(model.errorKinds, rest, 'red');
  const join = (a: Line | undefined, b: Line | undefined): Line => [
    ...padTo(a ?? [], half),
    span(' │ ', 'dim'),
    ...(b ?? []),
  ];
  return {
    priority: 2,
    head: [join(countHead('status', half), countHead('error', rest))],
    body: (n) => {
      const a = clip(left, n, NO_RESPONSES);
      const b = clip(right, n, NO_ERRORS);
      return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => join(a[i], b[i]));
    },
    size: Math.max(1, left.length, right.length),
  };
}

function padTo(line: Line, width: number): Line {
  const cutLine = fitLine(line, width);
  return [...cutLine, span(' '.repeat(Math.max(0, width - lineWidth(cutLine))))];
}

function ms(value: number | undefined): string {
  return value === undefined ? '–' : value.toFixed(2);
}

function num(text: string): string {
  return fit(text, NUMBER_WIDTH, 'right');
}

/** Rows of requests, failures and latency: the endpoints, or the named scenarios. */
function rowSection(
  what: string,
  rows: readonly EndpointRow[],
  width: number,
  empty: string,
  floor: number,
): Section {
  const name = Math.max(8, width - 5 * NUMBER_WIDTH);
  const heading =
    fit(what, name) +
    num('requests') +
    num('failed') +
    num('p50 ms') +
    num('p95 ms') +
    num('p99 ms');
  // Lines are built only for the rows shown: their percentiles are decoded on demand.
  const line = (r: EndpointRow): Line => {
    const p = r.percentiles();
    return [
      span(fit(r.name, name)),
      span(num(String(r.requests))),
      span(num(formatPercent(r.failureRate)), r.failureRate > 0 ? 'red' : undefined),
      span(num(ms(p?.p50)) + num(ms(p?.p95)) + num(ms(p?.p99))),
    ];
  };
  return {
    priority: 1,
    head: [[span(heading, 'bold')]],
    body: (n) => clipLazy(rows, n, line, empty),
    size: Math.max(1, rows.length),
    floor,
  };
}

function thresholdSection(model: DashboardModel, width: number): Section {
  const passing = model.thresholds.filter((t) => t.pass).length;
  const head: Line = [
    span('thresholds', 'bold'),
    span(`  ${passing} of ${model.thresholds.length} passing now`, 'dim'),
  ];
  const lines: Line[] = model.thresholds.map((t) => {
    const actual = t.actual === null ? 'no data' : t.actual.toFixed(2);
    return [
      span(t.pass ? '✓ ' : '✗ ', t.pass ? 'green' : 'red'),
      span(fit(t.threshold, width - 2 - ACTUAL_WIDTH)),
      span(fit(actual, ACTUAL_WIDTH, 'right'), t.pass ? undefined : 'red'),
    ];
  });
  return {
    priority: 0,
    head: [head],
    body: (n) => clip(lines, n, ''),
    size: lines.length,
    floor: lines.length,
  };
}

function errorFeedSection(events: readonly ErrorEvent[], width: number): Section {
  const endpoint = Math.min(32, Math.max(10, Math.floor((width - TIME_WIDTH) / 3)));
  const lines: Line[] = events.map((e) => {
    const statuses = e.statuses.length === 0 ? '' : ` ${e.statuses.join(' ')}`;
    return [
      span(fit(formatTenths(e.atMs), TIME_WIDTH), 'dim'),
      span(fit(e.endpoint, endpoint)),
      span(fit(`×${e.count}`, NUMBER_WIDTH, 'right')),
      span(`  ${e.kind}${statuses}`, 'red'),
    ];
  });
  return {
    priority: 3,
    head: [[span('latest errors', 'bold')]],
    body: (n) => clip(lines, n, 'none so far'),
    size: Math.max(1, lines.length),
  };
}
