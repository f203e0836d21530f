/**
 * The dashboard's layout: a DashboardModel and a terminal size → exactly `rows` lines, none wider
 * than `columns`. Pure. From the top:
 *
 *   header      barrage, the target, workers and pacing; the state and the elapsed time
 *   sparkline   requests/s of each ended second, newest on the right, with the last and the peak
 *   latency     p95 of each ended second (and p50 under it from 30 rows), on one scale, newest on
 *               the right, with the last second's p95 and p50
 *   gauges      progress, error rate, busy workers (and requests in flight), rate vs target
 *   sections    status codes | error kinds, endpoints (p50/p95/p99), thresholds (✓/✗ live),
 *               latest errors (screen-sections.ts)
 *   footer      the keys
 *
 * Rows: the sparkline is one row, a tenth of the screen from 30 rows, and grows into rows the
 * sections leave, up to a sixth of the screen; never so tall that a section loses its heading,
 * first row or floor. The sections share the rest: first each gets its heading and one row, then
 * a section with a floor (the thresholds: all; the endpoints: ENDPOINT_FLOOR rows, worst first)
 * gets rows up to it, in priority order, then blank lines go between sections, then spare rows go one at a time to each section that has more to show, in priority order
 * (thresholds, endpoints, status codes and errors, latest errors); a section that cannot show every row ends
 * with `… N more`. When even headings and first rows do not fit, sections are left out, the
 * lowest priority first. Below MIN_COLUMNS × MIN_ROWS the screen asks for more room.
 */
import type { DashboardModel, GaugeModel, RunState, Tone } from './dashboard-model.js';
import { formatClock, formatMs, formatRate } from './format.js';
import { gauge } from './gauge.js';
import { sectionsOf, type Section } from './screen-sections.js';
import { sparkChart, sparkline } from './sparkline.js';
import { cut, fit, fitLine, span, textWidth, type Line, type Style } from './styled-line.js';

/** Smallest terminal width the dashboard draws in. */
export const MIN_COLUMNS = 40;
/** Smallest terminal height the dashboard draws in. */
export const MIN_ROWS = 12;
const LABEL_WIDTH = 10;
const MAX_BAR = 50;
const MIN_BAR = 8;

/** A terminal size in cells. */
export interface ScreenSize {
  readonly columns: number;
  readonly rows: number;
}

/** The whole screen, exactly `size.rows` lines. */
export function renderScreen(model: DashboardModel, size: ScreenSize): Line[] {
  const { columns: width, rows: height } = size;
  if (width < MIN_COLUMNS || height < MIN_ROWS) return tooSmall(size);
  const gauges = gaugeLines(model, width);
  const sections = sectionsOf(model, width);
  const latencyRows = height >= 30 ? 2 : 1;
  // Header, latency, gauges, the blank under them and the footer are fixed; chart and sections
  // share the rest.
  const shared = height - 3 - latencyRows - gauges.length;
  const chartHeight = Math.max(
    1,
    Math.min(
      Math.floor(height / 6),
      shared - minimum(sections) - aboveMinimum(sections),
      Math.max(height >= 30 ? Math.floor(height / 10) : 1, shared - need(sections)),
    ),
  );
  const lines: Line[] = [
    header(model, width),
    ...rateChart(model, width, chartHeight),
    ...latencyChart(model, width, latencyRows),
    ...gauges,
    [],
    ...layoutSections(sections, shared - chartHeight),
  ];
  while (lines.length < height - 1) lines.push([]);
  lines.push(footer(model.state));
  return lines.slice(0, height).map((line) => fitLine(line, width));
}

function tooSmall(size: ScreenSize): Line[] {
  const lines: Line[] = [
    [span(`terminal too small: ${size.columns}×${size.rows}`, 'bold')],
    [span(`the dashboard needs ${MIN_COLUMNS}×${MIN_ROWS}; q stops the run`)],
  ];
  while (lines.length < size.rows) lines.push([]);
  return lines.slice(0, size.rows).map((line) => fitLine(line, size.columns));
}

const STATE_STYLE: Readonly<Record<RunState, Style>> = {
  starting: 'dim',
  running: 'green',
  stopping: 'yellow',
};

function header(model: DashboardModel, width: number): Line {
  const right = ` ${model.state} ${formatClock(model.elapsedMs)} `;
  const room = Math.max(0, width - textWidth(' barrage  ') - textWidth(right));
  // The load description is short; the title (a URL) is cut first.
  const load = `  ${model.load}`;
  const title = cut(model.title, Math.max(0, room - textWidth(load)));
  const rest = room - textWidth(title);
  return [
    span(' barrage ', 'inverse'),
    span(' '),
    span(title, 'bold'),
    span(fit(load, rest), 'dim'),
    span(' '),
    span(model.state, STATE_STYLE[model.state]),
    span(` ${formatClock(model.elapsedMs)} `),
  ];
}

function rateChart(model: DashboardModel, width: number, height: number): Line[] {
  const last = model.rates[model.rates.length - 1];
  const peak = model.rates.reduce((a, b) => Math.max(a, b), 0);
  const figures =
    last === undefined
      ? ' waiting for the first second'
      : ` ${formatRate(last)} · peak ${formatRate(peak)}`;
  const rows = sparkChart(
    model.rates,
    Math.max(0, width - LABEL_WIDTH - textWidth(figures)),
    height,
  );
  return rows.map((row, i) => [
    span(fit(i === 0 ? 'req/s' : '', LABEL_WIDTH), 'dim'),
    span(row, 'cyan'),
    span(i === rows.length - 1 ? figures : ''),
  ]);
}

/** The latency of each ended second: p95, and p50 under it when `rows` is 2, on one scale. */
function latencyChart(model: DashboardModel, width: number, rows: number): Line[] {
  const lastOf = (values: readonly (number | undefined)[]): number | undefined =>
    values.findLast((v) => v !== undefined);
  const p95 = lastOf(model.latency.p95);
  const p50 = lastOf(model.latency.p50);
  const figures =
    p95 === undefined || p50 === undefined
      ? ' waiting for the first second'
      : ` p95 ${formatMs(p95)} · p50 ${formatMs(p50)}`;
  const chartWidth = Math.max(0, width - LABEL_WIDTH - textWidth(figures));
  const series = [model.latency.p95, model.latency.p50]
    .slice(0, rows)
    .map((values) => values.slice(-chartWidth).map((v) => v ?? 0));
  const top = series[0]!.reduce((a, b) => Math.max(a, b), 0);
  return series.map((values, i) => [
    span(fit(i === 0 ? 'p95 ms' : 'p50 ms', LABEL_WIDTH), 'dim'),
    span(sparkline(values, chartWidth, top), 'magenta'),
    span(i === series.length - 1 ? figures : ''),
  ]);
}

const TONE_STYLE: Readonly<Record<Tone, Style>> = { ok: 'green', warn: 'yellow', bad: 'red' };

function gaugeLines(model: DashboardModel, width: number): Line[] {
  const longest = model.gauges.reduce((a, g) => Math.max(a, textWidth(g.text)), 0);
  const bar = Math.min(MAX_BAR, Math.max(MIN_BAR, width - LABEL_WIDTH - 2 - longest));
  return model.gauges.map((g: GaugeModel) => {
    const cells = gauge(g.fraction, bar);
    return [
      span(fit(g.label, LABEL_WIDTH), 'dim'),
      span(cells.fill, TONE_STYLE[g.tone]),
      span(cells.rest, 'dim'),
      span(`  ${g.text}`),
    ];
  });
}

function footer(state: RunState): Line {
  return state === 'stopping'
    ? [span(' stopping: in-flight requests finish · q or Ctrl+C again quits now', 'yellow')]
    : [
        span(' q', 'bold'),
        span(' or '),
        span('Ctrl+C', 'bold'),
        span(' stops the run (in-flight requests finish)', 'dim'),
      ];
}

/** Rows for every section's heading and first row (blank lines between them are extra). */
function minimum(sections: readonly Section[]): number {
  return sections.reduce((sum, s) => sum + s.head.length + 1, 0);
}

/** Rows the sections' floors ask beyond their first row. */
function aboveMinimum(sections: readonly Section[]): number {
  return sections.reduce((sum, s) => sum + Math.max(0, Math.min(s.floor ?? 1, s.size) - 1), 0);
}

/** Rows for every section whole, with a blank line between sections. */
function need(sections: readonly Section[]): number {
  const rows = sections.reduce((sum, s) => sum + s.head.length + s.size, 0);
  return rows + Math.max(0, sections.length - 1);
}

/** Places sections in `height` rows (see the file comment); returns the lines. */
function layoutSections(sections: readonly Section[], height: number): Line[] {
  const kept = [...sections];
  while (kept.length > 0 && minimum(kept) > height) {
    const lowest = kept.reduce((a, b) => (b.priority > a.priority ? b : a));
    kept.splice(kept.indexOf(lowest), 1);
  }
  let spare = Math.max(0, height - minimum(kept));
  const rows = new Map<Section, number>(kept.map((s) => [s, 1]));
  const byPriority = [...kept].sort((a, b) => a.priority - b.priority);
  // Floors first, then the blank lines between sections, then spare rows one at a time.
  for (const s of byPriority) {
    const floor = Math.min(s.floor ?? 1, s.size, 1 + spare);
    spare -= floor - 1;
    rows.set(s, floor);
  }
  const gaps = Math.min(Math.max(0, kept.length - 1), spare);
  spare -= gaps;
  for (let given = true; spare > 0 && given;) {
    given = false;
    for (const s of byPriority) {
      const n = rows.get(s) ?? 1;
      if (spare === 0 || n >= s.size) continue;
      rows.set(s, n + 1);
      spare--;
      given = true;
    }
  }
  const lines: Line[] = [];
  kept.forEach((s, i) => {
    if (i > 0 && i <= gaps) lines.push([]);
    lines.push(...s.head, ...s.body(rows.get(s) ?? 1));
  });
  return lines;
}
