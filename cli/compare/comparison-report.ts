/**
 * The reports of `barrage compare`: the text table on stdout, the Markdown for a pull request
 * comment or the GitHub step summary, and the JSON. Each lists the figures that moved (value in
 * each run, the change, absolute and relative, and whether it is outside the noise: docs/reports.md,
 * "Comparing runs"), then the comparison thresholds with the baseline's value beside the actual.
 *
 *   --- Comparison: base.json → new.json ---
 *   ┌──────────────────────┬───────┬───────┬────────┬─────────┬───────────────┐
 *   │ Figure               │  Base │   New │ Change │       % │ Outside noise │
 *   │ endpoint slow · p95  │ 21.40 │ 41.90 │ +20.50 │ +95.8 % │           yes │
 *   └──────────────────────┴───────┴───────┴────────┴─────────┴───────────────┘
 *   3 figures changed, 1 outside the noise.
 *   Thresholds:
 *     ✗ http_req_duration:p95 < baseline * 1.10: baseline 21.40, actual 23.10, limit 23.54
 */
import type { FigureChange } from './comparison.js';
import type { FigureUnit } from './figures.js';
import type { RelativeThresholdResult } from './relative-threshold.js';
import { formatCount } from '../render/report-figures.js';
import { codeSpan, escapeMarkdown, markdownTable } from '../render/summary-markdown.js';
import { plainTable, truncateName } from '../render/tables.js';

/** What the reports show: the two files, the figures that moved and the thresholds. */
export interface ComparisonReport {
  readonly baseFile: string;
  readonly newFile: string;
  readonly moved: readonly FigureChange[];
  readonly thresholds: readonly RelativeThresholdResult[];
}

/** Widest figure name in the text table. */
const MAX_FIGURE = 48;
const HEAD = ['Figure', 'Base', 'New', 'Change', '%', 'Outside noise'];

/** A value in its unit: ms and rates with 2 decimals, counts whole, shares as percentages. */
function formatFigure(value: number | undefined, unit: FigureUnit): string {
  if (value === undefined) return '–';
  if (unit === 'share') return `${(value * 100).toFixed(2)} %`;
  if (unit === 'count') return formatCount(value);
  return value.toFixed(2);
}

/** A signed change: shares in percentage points. */
function formatChange(change: FigureChange): string {
  if (change.change === undefined) return change.base === undefined ? 'new' : 'gone';
  const sign = change.change > 0 ? '+' : change.change < 0 ? '−' : '';
  const size = Math.abs(change.change);
  if (change.unit === 'share') return `${sign}${(size * 100).toFixed(2)} pt`;
  return `${sign}${change.unit === 'count' ? formatCount(size) : size.toFixed(2)}`;
}

/** The relative change, signed, one decimal; `–` when there is none. */
function formatRelative(relative: number | undefined): string {
  if (relative === undefined) return '–';
  return `${relative > 0 ? '+' : relative < 0 ? '−' : ''}${Math.abs(relative * 100).toFixed(1)} %`;
}

const VERDICT = { moved: 'yes', noise: 'no', unknown: '–' } as const;

/** A figure's label: scope and name (`run` scope left out). */
function label(change: FigureChange): string {
  return change.scope === 'run' ? change.name : `${change.scope} · ${change.name}`;
}

/** The cells of one row, label first. */
function cells(change: FigureChange): string[] {
  return [
    formatFigure(change.base, change.unit),
    formatFigure(change.next, change.unit),
    formatChange(change),
    formatRelative(change.relative),
    VERDICT[change.verdict],
  ];
}

/** "N figures changed, M outside the noise." */
function countLine(moved: readonly FigureChange[]): string {
  if (moved.length === 0) return 'No figure changed.';
  const outside = moved.filter((c) => c.verdict === 'moved').length;
  return `${moved.length} figure${moved.length === 1 ? '' : 's'} changed, ${outside} outside the noise.`;
}

/** A threshold's figure to 3 decimals, `no data` for one a run lacks. */
function thresholdFigure(v: number | null): string {
  return v === null ? 'no data' : String(Math.round(v * 1000) / 1000);
}

/** A threshold's numbers. */
function thresholdNumbers(t: RelativeThresholdResult): string {
  const n = thresholdFigure;
  return `baseline ${n(t.baseline)}, actual ${n(t.actual)}, limit ${n(t.limit)}`;
}

/** The text report. */
export function renderComparisonText(report: ComparisonReport): string {
  const lines = [`--- Comparison: ${report.baseFile} → ${report.newFile} ---`];
  if (report.moved.length > 0)
    lines.push(
      plainTable(
        HEAD,
        report.moved.map((change) => [truncateName(label(change), MAX_FIGURE), ...cells(change)]),
      ),
    );
  lines.push(countLine(report.moved));
  if (report.thresholds.length > 0) {
    lines.push('Thresholds:');
    for (const t of report.thresholds)
      lines.push(`  ${t.pass ? '✓' : '✗'} ${t.expression}: ${thresholdNumbers(t)}`);
    const failed = report.thresholds.filter((t) => !t.pass).length;
    lines.push(
      `Threshold Summary: ${report.thresholds.length - failed}/${report.thresholds.length} passed`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The Markdown report. */
export function renderComparisonMarkdown(report: ComparisonReport): string {
  const failed = report.thresholds.filter((t) => !t.pass).length;
  const mark = report.thresholds.length === 0 ? '' : failed === 0 ? '✅ ' : '❌ ';
  const lines = [
    `### ${mark}barrage compare: ${codeSpan(report.baseFile)} → ${codeSpan(report.newFile)}`,
    '',
    countLine(report.moved),
  ];
  if (report.moved.length > 0) {
    const rows = report.moved.map((change) => {
      const [base, next, diff, relative, verdict] = cells(change);
      const shown = change.verdict === 'moved' ? `**${verdict}**` : verdict!;
      return [escapeMarkdown(label(change)), base!, next!, diff!, relative!, shown];
    });
    lines.push('', ...markdownTable(HEAD, rows, [1, 2, 3, 4, 5]));
  }
  if (report.thresholds.length > 0) {
    const n = thresholdFigure;
    const rows = report.thresholds.map((t) => [
      codeSpan(t.expression),
      n(t.baseline),
      n(t.actual),
      n(t.limit),
      t.pass ? '✅ pass' : '❌ fail',
    ]);
    lines.push(
      '',
      ...markdownTable(['Threshold', 'Baseline', 'Actual', 'Limit', 'Result'], rows, [1, 2, 3]),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The JSON report: every moved figure with its numbers (shares as fractions), and the thresholds. */
export function renderComparisonJson(report: ComparisonReport): string {
  const round = (v: number | undefined): number | null =>
    v === undefined || !Number.isFinite(v) ? null : Math.round(v * 1e6) / 1e6;
  return `${JSON.stringify(
    {
      base: report.baseFile,
      new: report.newFile,
      figures: report.moved.map((c) => ({
        scope: c.scope,
        figure: c.name,
        unit: c.unit,
        base: round(c.base),
        new: round(c.next),
        change: round(c.change),
        relative_change: round(c.relative),
        noise: round(c.noise),
        outside_noise: c.verdict === 'unknown' ? null : c.verdict === 'moved',
      })),
      thresholds: report.thresholds,
    },
    null,
    2,
  )}\n`;
}
