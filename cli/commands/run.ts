/**
 * `barrage run` (and bare `barrage [flags]`): load → execute → summarize → thresholds → reports →
 * exit code (spec §3.3). The first SIGINT, and any SIGTERM or SIGHUP, stops dispatch and lets
 * in-flight requests finish; the report says interrupted and thresholds still decide the exit code.
 * A second SIGINT aborts everything, prints and writes every requested report of what was
 * collected, synchronously, and exits 130 (DESIGN.md §3).
 */
import { Command, Option } from 'clipanion';
import { availableParallelism } from 'node:os';
import type { ReportPlan } from '../../dsl/plan/plan.js';
import { systemClock } from '../../runtime/deps.js';
import { emptySnapshot, execute } from '../../runtime/execute.js';
import { resolveThreads } from '../../runtime/segment/auto-threads.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { RawResult } from '../../runtime/raw-result.js';
import type { UserSignal } from '../context.js';
import {
  chooseLiveMode,
  openLiveView,
  type LiveMode,
  type LiveView,
} from '../dashboard/live-view.js';
import { ExitCode, exitCodeFor } from '../exit-code.js';
import { Redactor } from '../render/redact.js';
import type { RunReport } from '../render/run-report.js';
import { deliverReports } from '../report-outputs.js';
import { PlanCommand } from './plan-command.js';
import { reportFromRaw, toRawResult } from './run-report-builder.js';

/** Runs a load test. */
export class RunCommand extends PlanCommand {
  static override paths = [['run'], Command.Default];

  static override usage = Command.Usage({
    description: 'Run a load test',
    details: `
      Loads the configuration (file, BARRAGE_* environment variables, flags), validates it before
      any traffic, runs the load, prints the results and evaluates the thresholds: the exit code is 0
      when every threshold passes (or none are defined) and 1 otherwise. Ctrl+C stops the run and
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

  /** Loads, runs, reports. */
  async run(): Promise<number> {
    const loaded = await this.load();
    const redactor = new Redactor(loaded);
    const stop = new AbortController();
    const hardStop = new AbortController();
    let latest: ShardSnapshot | undefined;
    let signals = 0;
    let view: LiveView | undefined;
    // SIGINT/SIGTERM/SIGHUP, and the dashboard's q and Ctrl+C keys (raw mode turns Ctrl+C into a
    // key). Only a second SIGINT is a hard stop: SIGTERM and SIGHUP come from machines (a
    // supervisor, a closed terminal) that expect the run to wind down and report.
    const interrupt = (signal: UserSignal): void => {
      signals++;
      if (signals === 1 || signal !== 'SIGINT') {
        // The dashboard says it on screen; a line on stderr would tear its frame.
        if (signals === 1 && view?.ownsTerminal !== true)
          this.context.stderr.write(
            `\nbarrage: ${signal}: stopping; in-flight requests finish (Ctrl+C again to quit now)\n`,
          );
        stop.abort();
        return;
      }
      hardStop.abort();
      view?.close();
      // Before the first snapshot (in its first half second) the run has recorded nothing yet.
      const collected = latest ?? emptySnapshot(loaded.plan, systemClock);
      const raw = toRawResult(loaded, { ...collected, interrupted: true }, undefined, redactor);
      this.#deliver(loaded.plan.report, raw);
      this.context.exitNow(ExitCode.Interrupted);
    };
    const unsubscribe = this.context.onSignal(interrupt);
    try {
      view = openLiveView(this.context, loaded, this.#liveMode(), {
        stopping: stop.signal,
        onQuit: () => interrupt('SIGINT'),
      });
      const { snapshot, fatal } = await execute(loaded.plan, systemClock, {
        threads: resolveThreads(loaded.plan, availableParallelism()),
        stop: stop.signal,
        hardStop: hardStop.signal,
        onProgress: (s, live) => {
          latest = s;
          view?.update(s, live);
        },
        execPath: this.context.execPath,
        onExit: this.context.onExit,
        onWarning: (text) => this.context.stderr.write(`barrage: ${redactor.text(text)}\n`),
      });
      // The terminal is restored before anything is printed below the dashboard.
      view.close();
      const raw = toRawResult(loaded, snapshot, fatal, redactor);
      const { report, failures } = this.#deliver(loaded.plan.report, raw);
      if (raw.fatal !== undefined)
        this.context.stderr.write(`barrage: the run stopped: ${raw.fatal}\n`);
      return exitCodeFor({
        thresholdsFailed: report.thresholds?.failed ?? 0,
        fatal: fatal !== undefined,
        reportFailed: failures > 0,
      });
    } finally {
      view?.close();
      unsubscribe();
    }
  }

  #liveMode(): LiveMode {
    return chooseLiveMode({
      isTTY: this.context.isTTY,
      env: this.context.env,
      dashboard: this.dashboard,
      jsonOutput: this.jsonOutput,
      quiet: this.quiet,
    });
  }

  /** Prints and writes every report of `raw`; returns the report and how many files failed. */
  #deliver(paths: ReportPlan, raw: RawResult): { report: RunReport; failures: number } {
    const report = reportFromRaw(raw);
    return { report, failures: deliverReports(this.context, paths, raw, report, this.jsonOutput) };
  }
}
