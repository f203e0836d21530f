/**
 * What a finished run (or a merge) prints and writes (delivered by command-outcome.ts): the text report or, with --json-output,
 * only the JSON result on stdout; and the report files asked for (`report.*` keys and flags),
 * plus the GitHub step summary: when `$GITHUB_STEP_SUMMARY` names a file (GitHub Actions sets it
 * for each step), the Markdown summary is appended to it, whether or not `--summary-md` was given.
 * Each file renders only when written, so the chart library is read only for an HTML report, and
 * the HTML renderer, which brings yaml and node:crypto, is imported only when one is asked for
 * (importRenderers, before a run starts).
 */
import type { ReportPlan } from '../model/plan/plan.js';
import type { RawResult } from '../runtime/raw-result.js';
import { loadChartLibrary } from './render/chart-library.js';
import type { renderHtmlReport } from './render/html-report.js';
import { renderJsonReport } from './render/json-report.js';
import { renderJunitReport } from './render/junit-report.js';
import type { RunReport } from './render/run-report.js';
import { renderSummaryMarkdown } from './render/summary-markdown.js';
import { renderTextReport } from './render/text-report.js';
import type { BarrageContext } from './context.js';
import type { CommandOutcome } from './command-outcome.js';
import type { ReportFile } from './report-files.js';
import { VERSION } from './version.js';
import { emptyRunCause } from '../runtime/metrics/empty-run.js';

/** The environment variable GitHub Actions sets to the step's summary file. */
const GITHUB_STEP_SUMMARY = 'GITHUB_STEP_SUMMARY';

/** How stdout is used. */
export interface PrintOptions {
  readonly jsonOutput: boolean;
  readonly color: boolean;
}

/** The text report, or only the JSON result. */
export function renderStdout(report: RunReport, options: PrintOptions): string {
  return options.jsonOutput
    ? renderJsonReport(report)
    : renderTextReport(report, { color: options.color });
}

/** The renderers imported only when their file is asked for (importRenderers). */
export interface Renderers {
  readonly html: typeof renderHtmlReport | undefined;
}

/** Imports the renderers of the files `paths` asks for. */
export async function importRenderers(paths: ReportPlan): Promise<Renderers> {
  if (paths.html === undefined) return { html: undefined };
  return { html: (await import('./render/html-report.js')).renderHtmlReport };
}

/** The files to write, in a fixed order: JSON, HTML, JUnit, Markdown, raw, step summary. */
export function reportFiles(
  paths: ReportPlan,
  report: RunReport,
  raw: RawResult,
  env: Readonly<Record<string, string | undefined>>,
  renderers: Renderers,
): ReportFile[] {
  const files: ReportFile[] = [];
  const add = (what: string, path: string | undefined, render: () => string): void => {
    if (path !== undefined) files.push({ what, path, render });
  };
  add('JSON result', paths.json, () => renderJsonReport(report));
  add('HTML report', paths.html, () => {
    if (renderers.html === undefined) throw new Error('bug: the HTML renderer was not imported');
    return renderers.html(report, { chart: loadChartLibrary(), version: VERSION });
  });
  add('JUnit report', paths.junit, () => renderJunitReport(report));
  add('Markdown summary', paths.summaryMd, () => renderSummaryMarkdown(report));
  add('raw result', paths.raw, () => `${JSON.stringify(raw)}\n`);
  const summary = stepSummaryFile(env, () => renderSummaryMarkdown(report));
  if (summary !== undefined) files.push(summary);
  return files;
}

/** The Markdown appended to `$GITHUB_STEP_SUMMARY` when it is set (GitHub Actions sets it). */
export function stepSummaryFile(
  env: Readonly<Record<string, string | undefined>>,
  render: () => string,
): ReportFile | undefined {
  const path = env[GITHUB_STEP_SUMMARY];
  if (path === undefined || path === '') return undefined;
  return { what: `GitHub step summary ($${GITHUB_STEP_SUMMARY})`, path, render, append: true };
}

/** What `run` and `merge` deliver of one result (see command-outcome.ts for how). */
export interface ResultDelivery {
  readonly paths: ReportPlan;
  readonly raw: RawResult;
  readonly report: RunReport;
  readonly jsonOutput: boolean;
  readonly renderers: Renderers;
  /** How a fatal ending reads on stderr: "the run stopped: …", "a segment stopped early: …". */
  readonly fatalNote: (fatal: string) => string;
  /**
   * False for a segment of a distributed run: its thresholds (and abort_on_fail) are the whole
   * run's, judged by the merge, so they do not decide its exit code; a note says how they stand.
   */
  readonly judgeThresholds?: boolean;
}

/**
 * The report on stdout, the files asked for, the metrics model's warnings on stderr (where a
 * --json-output run's reader looks), the fatal note and the cause of a run that proved nothing
 * (empty-run.ts); thresholds, a fatal end, an empty run and an abort
 * decide the exit code.
 */
export function resultOutcome(
  context: Pick<BarrageContext, 'env' | 'isTTY'>,
  delivery: ResultDelivery,
): CommandOutcome {
  const { paths, raw, report, jsonOutput, renderers } = delivery;
  const color = context.isTTY && context.env.NO_COLOR === undefined;
  const notes = (report.result.warnings ?? []).map((w) => `warning: ${w}`);
  if (raw.fatal !== undefined) notes.push(delivery.fatalNote(raw.fatal));
  // A fatal stop names its own cause; the empty run's would only repeat it.
  const empty = raw.fatal === undefined ? emptyRunCause(report.result) : undefined;
  if (empty !== undefined) notes.push(`the run failed: ${empty}`);
  if (raw.partial !== undefined)
    notes.push(
      `partial result: ${raw.partial.map((m) => `segment ${m.index}/${m.count} missing (${m.reason})`).join('; ')}`,
    );
  const judged = delivery.judgeThresholds !== false;
  const failed = report.thresholds?.failed ?? 0;
  if (!judged && (failed > 0 || raw.aborted !== undefined))
    notes.push(
      `segment ${raw.segment.index}/${raw.segment.count}: ${failed} of ${report.thresholds?.total ?? 0} thresholds fail on this segment's share alone; thresholds are the whole run's, judged when the segments are merged`,
    );
  return {
    stdout: renderStdout(report, { jsonOutput, color }),
    files: reportFiles(paths, report, raw, context.env, renderers),
    notes,
    ending: {
      thresholdsFailed: judged ? failed : 0,
      fatal: raw.fatal !== undefined,
      empty: empty !== undefined,
      aborted: judged && raw.aborted !== undefined,
      partial: raw.partial !== undefined,
    },
  };
}
