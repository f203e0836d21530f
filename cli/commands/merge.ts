/**
 * `barrage merge RESULT…`: combines the raw results of a distributed run's segments (written
 * with --raw) into one result, and prints and writes the same reports, with the same exit code,
 * that a single run of the whole plan would. The work is in merge-results.ts, imported when the
 * command runs: `--help` needs none of it.
 */
import { Command, Option } from 'clipanion';
import { INPUT_FILE_ISSUES } from '../render/user-errors.js';
import { BaseCommand } from './base-command.js';

/** Merges segment results. */
export class MergeCommand extends BaseCommand {
  protected override readonly issuesIn = INPUT_FILE_ISSUES;

  static override paths = [['merge']];

  static override usage = Command.Usage({
    description: 'Merge the raw results of a distributed run',
    details: `
      Reads the files that each segment wrote with --raw (run with --segment i/n), checks that they
      come from the same plan and cover every segment exactly once, merges them exactly (HDR
      histograms, counters, per-second series aligned on the wall clock) and reports like a
      single run: the text report (or --json-output), report files, thresholds and exit code.
      Files of another run of the plan (another --start-at) are refused. With --partial, the
      segments given are merged even if some are missing: every report says which, exit 1.
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
  partial = Option.Boolean('--partial', false, {
    description: 'Merge the segments given even if some are missing (labelled partial, exit 1)',
  });

  /** Reads, checks, merges, reports (the merging machinery is imported only now). */
  async run(): Promise<number> {
    const { mergeResults } = await import('./merge-results.js');
    const paths = {
      json: this.json,
      html: this.html,
      junit: this.junit,
      summaryMd: this.summaryMd,
      raw: this.raw,
      summaryBy: [],
    };
    return mergeResults(this.context, this.files, paths, this.jsonOutput, this.partial);
  }
}
