/**
 * `barrage run` (and bare `barrage [flags]`): load → execute → summarize → thresholds → reports →
 * exit code (spec §3.3). The first SIGINT, and any SIGTERM or SIGHUP, stops dispatch and lets
 * in-flight requests finish; the report says interrupted and thresholds still decide the exit code.
 * A second SIGINT aborts everything, prints and writes every requested report of what was
 * collected, synchronously, and exits 130 (DESIGN.md §3). The work itself is in run-load-test.ts,
 * imported when a run starts.
 */
import { Command, Option } from 'clipanion';
import type { Rendezvous } from '../rendezvous/rendezvous-flags.js';
import { PlanCommand } from './plan-command.js';

/** Runs a load test. */
export class RunCommand extends PlanCommand {
  static override paths = [['run'], Command.Default];

  static override usage = Command.Usage({
    description: 'Run a load test',
    details: `
      Loads the configuration (file, BARRAGE_* environment variables, flags), validates it before
      any traffic, runs the load, prints the results and evaluates the thresholds: the exit code is 0
      when every threshold passes (or none are defined) and 1 otherwise. A threshold with
      abort_on_fail: true stops the run as soon as it fails (exit 1). Ctrl+C stops the run and
      still reports; a second Ctrl+C exits at once with 130.
    `,
    examples: [
      [
        'Hammer one URL for 30 s with 50 workers',
        '$0 run --target http://127.0.0.1:8080/json -c 50 -d 30s',
      ],
      [
        'A fixed rate with a latency gate',
        "$0 run load.yaml -r 200 --threshold 'http_req_duration:p95 < 300'",
      ],
      ['Only the JSON result on stdout', '$0 run load.yaml --json-output'],
    ],
  });

  jsonOutput = Option.Boolean('--json-output', false, {
    description: 'Print only the JSON result on stdout',
  });
  dashboard = Option.Boolean('--dashboard', true, {
    description: 'Live dashboard on a terminal (--no-dashboard: progress lines on stderr instead)',
  });
  quiet = Option.Boolean('--quiet', false, {
    description: 'No live output: neither the dashboard nor progress lines',
  });
  coordinator = Option.String('--coordinator', {
    description:
      'HOST:PORT where the first segment gathers the others, releases them together and merges their results',
  });
  readyTimeout = Option.String('--ready-timeout', {
    description: 'With --coordinator: how long the segments wait for each other (default 5m)',
  });

  /** Loads, runs, reports (the run's machinery is imported only now: `--help` does not need it). */
  async run(): Promise<number> {
    const rendezvous = await this.rendezvous();
    const { loaded, overlay } = await this.load();
    const output = {
      jsonOutput: this.jsonOutput,
      dashboard: this.dashboard,
      quiet: this.quiet,
      baseline: overlay,
    };
    if (rendezvous !== undefined) {
      const { runWithRendezvous } = await import('../rendezvous/rendezvous-run.js');
      return runWithRendezvous(loaded, this.context, output, rendezvous);
    }
    const { runLoadTest } = await import('./run-load-test.js');
    return runLoadTest(loaded, this.context, output);
  }

  /** `--segment auto/n` resolved, and the rendezvous's flags read; ConfigError when wrong. */
  private async rendezvous(): Promise<Rendezvous | undefined> {
    const { readRendezvousFlags } = await import('../rendezvous/rendezvous-flags.js');
    const read = readRendezvousFlags(this, this.context.env);
    this.segment = read.segment;
    return read.rendezvous;
  }
}
