/**
 * The work of `barrage compare` (compare.ts declares the command and imports this when it runs):
 * check the thresholds and read both files (every problem at once, nothing compared before),
 * compare, and end through the step every reporting command shares (command-outcome.ts).
 */
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import { deliverOutcome, type CommandOutcome } from '../command-outcome.js';
import { compareResults } from '../compare/comparison.js';
import {
  judgeThresholds,
  parseRelativeThreshold,
  type RelativeThreshold,
} from '../compare/relative-threshold.js';
import { readResultFile, type ResultFigures } from '../compare/result-file.js';
import type { BarrageContext } from '../context.js';
import {
  renderComparisonJson,
  renderComparisonMarkdown,
  renderComparisonText,
  type ComparisonReport,
} from '../compare/comparison-report.js';
import { stepSummaryFile } from '../report-outputs.js';
import type { ReportFile } from '../report-files.js';

/** What `compare` was asked. */
export interface CompareInput {
  readonly baseFile: string;
  readonly newFile: string;
  readonly thresholds: readonly string[];
  /** A file, `-` for stdout, or undefined. */
  readonly markdown: string | undefined;
  readonly json: string | undefined;
}

/** Stands for stdout in --markdown and --json. */
const STDOUT = '-';

/** Compares, prints, writes; returns the exit code. Throws ConfigError for bad input. */
export function compareRuns(context: BarrageContext, input: CompareInput): number {
  const issues: ConfigIssue[] = [];
  if (input.markdown === STDOUT && input.json === STDOUT)
    issues.push({
      code: 'invalid_value',
      source: { kind: 'flag', flag: '--json' },
      path: [],
      expected: 'a file when --markdown already prints on stdout',
      actual: '"-"',
    });
  const thresholds: RelativeThreshold[] = [];
  for (const expression of input.thresholds) {
    const parsed = parseRelativeThreshold(expression);
    if (parsed.ok) thresholds.push(parsed.threshold);
    else issues.push(parsed.issue);
  }
  const read = (file: string): ResultFigures | undefined => {
    try {
      return readResultFile(context.cwd, file).figures;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      issues.push(...error.issues);
      return undefined;
    }
  };
  const base = read(input.baseFile);
  const next = read(input.newFile);
  if (issues.length > 0 || base === undefined || next === undefined) throw new ConfigError(issues);
  const comparison = compareResults(base, next);
  const report: ComparisonReport = {
    baseFile: input.baseFile,
    newFile: input.newFile,
    moved: comparison.moved,
    thresholds: judgeThresholds(thresholds, comparison.all),
  };
  return deliverOutcome(context, outcomeOf(context, input, report));
}

/** What compare prints and writes, and how it ends. */
function outcomeOf(
  context: BarrageContext,
  input: CompareInput,
  report: ComparisonReport,
): CommandOutcome {
  const stdout =
    input.markdown === STDOUT
      ? renderComparisonMarkdown(report)
      : input.json === STDOUT
        ? renderComparisonJson(report)
        : renderComparisonText(report);
  const files: ReportFile[] = [];
  if (input.markdown !== undefined && input.markdown !== STDOUT)
    files.push({
      what: 'Markdown comparison',
      path: input.markdown,
      render: () => renderComparisonMarkdown(report),
    });
  if (input.json !== undefined && input.json !== STDOUT)
    files.push({
      what: 'JSON comparison',
      path: input.json,
      render: () => renderComparisonJson(report),
    });
  const summary = stepSummaryFile(context.env, () => renderComparisonMarkdown(report));
  if (summary !== undefined) files.push(summary);
  return {
    stdout,
    files,
    notes: [],
    ending: {
      thresholdsFailed: report.thresholds.filter((t) => !t.pass).length,
      fatal: false,
      empty: false,
      aborted: false,
      partial: false,
    },
  };
}
