/**
 * `barrage merge RESULT…`: combines the raw results of a distributed run's segments (written
 * with --raw) into one result, and prints and writes the same reports, with the same exit code,
 * that a single run of the whole plan would.
 */
import { Command, Option } from 'clipanion';
import { resolve } from 'node:path';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import { readBoundedFile } from '../../dsl/sources/file-source.js';
import { mergeRawResults, type NamedRaw } from '../../runtime/merge-raw.js';
import { exitCodeFor } from '../exit-code.js';
import { parseRawResult } from '../raw-result-schema.js';
import { deliverReports } from '../report-outputs.js';
import { BaseCommand } from './base-command.js';
import { reportFromRaw } from './run-report-builder.js';

/** Largest raw result read (an hour-long segment with many endpoints stays far below it). */
export const MAX_RAW_BYTES = 256 * 1024 * 1024;

/** Merges segment results. */
export class MergeCommand extends BaseCommand {
  static override paths = [['merge']];

  static override usage = Command.Usage({
    description: 'Merge the raw results of a distributed run',
    details: `
      Reads the files that each segment wrote with --raw (run with --segment i/n), checks that they
      come from the same plan and cover every segment exactly once, merges them exactly (HDR
      histograms, counters, per-second series aligned on the wall clock) and reports like a
      single run: the text report (or --json-output), report files, thresholds and exit code.
    `,
    examples: [['Merge three segments', '$0 merge results/segment-*.json --json merged.json']],
  });

  files = Option.Rest({ required: 1, name: 'RESULT' });
  jsonOutput = Option.Boolean('--json-output', false, {
    description: 'Print only the JSON result on stdout',
  });
  json = Option.String('--json', { description: 'Write the JSON result to a file' });
  html = Option.String('--html', { description: 'Write the HTML report to a file' });
  junit = Option.String('--junit', { description: 'Write thresholds as JUnit XML to a file' });
  summaryMd = Option.String('--summary-md', { description: 'Write a Markdown summary to a file' });
  raw = Option.String('--raw', { description: 'Write the merged raw result to a file' });

  /** Reads, checks, merges, reports. */
  async run(): Promise<number> {
    const files = this.#read();
    const outcome = mergeRawResults(files);
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
    const report = reportFromRaw(merged);
    const paths = {
      json: this.json,
      html: this.html,
      junit: this.junit,
      summaryMd: this.summaryMd,
      raw: this.raw,
    };
    const failures = deliverReports(this.context, paths, merged, report, this.jsonOutput);
    if (merged.fatal !== undefined)
      this.context.stderr.write(`barrage: a segment stopped early: ${merged.fatal}\n`);
    return Promise.resolve(
      exitCodeFor({
        thresholdsFailed: report.thresholds?.failed ?? 0,
        fatal: merged.fatal !== undefined,
        reportFailed: failures > 0,
      }),
    );
  }

  /** Every file read and checked against the raw result schema; all problems at once. */
  #read(): NamedRaw[] {
    const issues: ConfigIssue[] = [];
    const raws: NamedRaw[] = [];
    for (const name of this.files) {
      const text = readBoundedFile(resolve(this.context.cwd, name), 'raw result', MAX_RAW_BYTES);
      if (!text.ok) {
        for (const issue of text.error)
          issues.push({ ...issue, source: { kind: 'file', file: name } });
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(text.value);
      } catch (error) {
        issues.push({
          code: 'parse_error',
          source: { kind: 'file', file: name },
          path: [],
          expected: 'a raw result (JSON) written by barrage run --raw',
          actual: (error as Error).message,
        });
        continue;
      }
      const parsed = parseRawResult(name, value);
      if (parsed.ok) raws.push({ name, raw: parsed.raw });
      else for (const issue of parsed.issues) issues.push(issue);
    }
    if (issues.length > 0) throw new ConfigError(issues);
    return raws;
  }
}
