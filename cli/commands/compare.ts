/**
 * `barrage compare BASE NEW`: the figures that moved between two runs, with the change and
 * whether it is outside the noise the runs themselves show, and comparison thresholds against
 * the base run. The work is in compare-results.ts, imported when the command runs: `--help`
 * needs none of it.
 */
import { Command, Option } from 'clipanion';
import { INPUT_FILE_ISSUES } from '../render/user-errors.js';
import { BaseCommand } from './base-command.js';

/** Compares two results. */
export class CompareCommand extends BaseCommand {
  protected override readonly issuesIn = INPUT_FILE_ISSUES;

  static override paths = [['compare']];

  static override usage = Command.Usage({
    description: 'Compare a run with a baseline run',
    details: `
      Reads two results (JSON results written with --json or --json-output, or raw results written
      with --raw) and lists every figure that changed: totals, requests/s, failure rate and latency
      of the run, each endpoint, scenario and tag value, checks' pass rates and error kinds, with
      the change and whether it is outside the run-to-run noise (judged from each run's
      per-second figures). Thresholds compare the new run with the base run
      ("http_req_duration:p95 < baseline * 1.10"); the exit code is 1 when one fails.
    `,
    examples: [
      ['Compare a branch with main', '$0 compare main.json branch.json'],
      [
        'Gate a pull request on p95 and write its comment',
        "$0 compare main.json pr.json --threshold 'http_req_duration:p95 < baseline * 1.10' --markdown comment.md",
      ],
    ],
  });

  base = Option.String({ name: 'BASE' });
  next = Option.String({ name: 'NEW' });
  markdown = Option.String('--markdown', {
    description: 'Write the comparison as Markdown to a file (- for stdout)',
  });
  json = Option.String('--json', {
    description: 'Write the comparison as JSON to a file (- for stdout)',
  });
  threshold = Option.Array('--threshold', {
    description:
      "A relative threshold, e.g. 'http_req_duration:p95 < baseline * 1.10' (repeatable)",
  });

  /** Reads, compares, reports (the machinery is imported only now). */
  async run(): Promise<number> {
    const { compareRuns } = await import('./compare-results.js');
    return compareRuns(this.context, {
      baseFile: this.base,
      newFile: this.next,
      thresholds: this.threshold ?? [],
      markdown: this.markdown,
      json: this.json,
    });
  }
}
