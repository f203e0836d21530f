/**
 * The work of `barrage merge` (merge.ts declares the command and imports this when it runs):
 * read and check every raw result, merge them, report, and turn the outcome into the exit code.
 */
import type { ReportPlan } from '../../model/plan/plan.js';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import { mergeRawResults, type NamedRaw } from '../../runtime/merge-raw.js';
import type { BarrageContext } from '../context.js';
import { deliverOutcome } from '../command-outcome.js';
import { parseRawResult } from '../raw-result-schema.js';
import { readResultJson } from '../result-json-file.js';
import { importRenderers, resultOutcome } from '../report-outputs.js';
import { reportFromRaw } from '../run-report-builder.js';

/** Reads, checks, merges, reports; returns the exit code. Throws ConfigError for bad files. */
export async function mergeResults(
  context: BarrageContext,
  files: readonly string[],
  paths: ReportPlan,
  jsonOutput: boolean,
  partial = false,
): Promise<number> {
  const outcome = mergeRawResults(readResults(context.cwd, files), {
    missing: partial ? () => 'no file given' : undefined,
  });
  if ('problems' in outcome) {
    throw new ConfigError(
      outcome.problems.map((problem) => ({
        code: 'invalid_value',
        source: { kind: 'flag', flag: 'RESULT' },
        path: [],
        expected: 'one result file per segment of one plan',
        actual: problem,
      })),
    );
  }
  const merged = outcome.merged;
  for (const warning of outcome.warnings) context.stderr.write(`barrage: warning: ${warning}\n`);
  return deliverOutcome(
    context,
    resultOutcome(context, {
      paths,
      raw: merged,
      report: reportFromRaw(merged),
      jsonOutput,
      renderers: await importRenderers(paths),
      fatalNote: (fatal) => `a segment stopped early: ${fatal}`,
    }),
  );
}

/** Every file read and checked against the raw result schema; all problems at once. */
function readResults(cwd: string, files: readonly string[]): NamedRaw[] {
  const issues: ConfigIssue[] = [];
  const raws: NamedRaw[] = [];
  for (const name of files) {
    const value = readResultJson(
      cwd,
      name,
      'raw result',
      'a raw result (JSON) written by barrage run --raw',
    );
    if (!value.ok) {
      issues.push(...value.error);
      continue;
    }
    const parsed = parseRawResult(name, value.value);
    if (parsed.ok) raws.push({ name, raw: parsed.raw });
    else for (const issue of parsed.issues) issues.push(issue);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return raws;
}
