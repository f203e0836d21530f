/**
 * What a finished run (or a merge) prints and writes: the text report or, with --json-output,
 * only the JSON result on stdout; and the report files asked for (report.* keys and flags).
 */
import type { ReportPlan } from '../dsl/plan/plan.js';
import type { RawResult } from '../runtime/raw-result.js';
import { renderJsonReport } from './render/json-report.js';
import type { RunReport } from './render/run-report.js';
import { renderTextReport } from './render/text-report.js';
import type { ReportFile } from './report-files.js';

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

/** The files to write for these report paths. */
export function reportFiles(paths: ReportPlan, report: RunReport, raw: RawResult): ReportFile[] {
  const files: ReportFile[] = [];
  if (paths.json !== undefined)
    files.push({ what: 'JSON result', path: paths.json, render: () => renderJsonReport(report) });
  if (paths.raw !== undefined)
    files.push({ what: 'raw result', path: paths.raw, render: () => `${JSON.stringify(raw)}\n` });
  return files;
}
