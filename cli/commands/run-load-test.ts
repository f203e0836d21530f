/**
 * The work of `barrage run` (run.ts declares the command and imports this when a run starts):
 * execute the Plan with the live view (and the HTTP debug log, opened before any traffic), print
 * the report, write the report files, and turn the outcome into the exit code.
 */
import { availableParallelism } from 'node:os';
import type { Loaded } from '../../dsl/load-plan.js';
import type { ReportPlan } from '../../model/plan/plan.js';
import { systemClock } from '../../runtime/schedule/clock.js';
import { emptySnapshot, execute } from '../../runtime/execute.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { HttpDebugCounts, RawResult } from '../../runtime/raw-result.js';
import {
  watchAbortThresholds,
  type ThresholdAbort,
} from '../../runtime/thresholds/abort-on-fail.js';
import { resolveThreads } from '../../runtime/segment/auto-threads.js';
import type { BarrageContext, UserSignal } from '../context.js';
import {
  chooseLiveMode,
  openLiveView,
  type LiveMode,
  type LiveView,
} from '../dashboard/live-view.js';
import { deliverOutcome } from '../command-outcome.js';
import { ExitCode } from '../exit-code.js';
import { Redactor } from '../render/redact.js';
import { abortText } from '../render/report-figures.js';
import { endpointTable } from '../endpoint-table.js';
import type { BaselineOverlay } from '../render/run-report.js';
import { importRenderers, resultOutcome, type Renderers } from '../report-outputs.js';
import { reportFromRaw, toRawResult } from '../run-report-builder.js';
import type { LiveOutputs } from '../live-outputs.js';
import type { HttpDebugLog } from '../http-debug-log.js';
import { checkOutputPaths, outputPathsOf } from '../output-paths.js';
import { formatDuration } from '../../dsl/grammar/duration.js';
import { startStopWatchdog, WATCHDOG_MARGIN_MS, type StopWatchdog } from '../stop-watchdog.js';

/** Lines kept while the dashboard owns the terminal, printed once it is closed. */
const MAX_HELD_LINES = 1000;

/** The output flags of `run`. */
export interface RunOutput {
  readonly jsonOutput: boolean;
  readonly dashboard: boolean;
  readonly quiet: boolean;
  /** The baseline run the HTML report draws beside this one. */
  readonly baseline: BaselineOverlay | undefined;
}

/** Runs the loaded Plan and reports; returns the exit code. */
export async function runLoadTest(
  loaded: Loaded,
  context: BarrageContext,
  output: RunOutput,
): Promise<number> {
  const redactor = new Redactor(loaded);
  // Before the run: an interrupt reports at once, synchronously.
  const renderers = await importRenderers(loaded.plan.report);
  const stop = new AbortController();
  const hardStop = new AbortController();
  let latest: ShardSnapshot | undefined;
  let signals = 0;
  let view: LiveView | undefined;
  let aborted: ThresholdAbort | undefined;
  const plan = loaded.plan;
  // Warnings (a scenario's errors and console lines too) while the dashboard owns the terminal
  // wait below it; a line on stderr would tear it. MAX_HELD_LINES of them at most.
  const held: string[] = [];
  let heldOver = 0;
  /** Writes or holds a line; false when it was dropped (past MAX_HELD_LINES held). */
  const toStderr = (line: string): boolean => {
    if (view?.ownsTerminal !== true) context.stderr.write(line);
    else if (held.length < MAX_HELD_LINES) held.push(line);
    else {
      heldOver++;
      return false;
    }
    return true;
  };
  const warn = (text: string): void => {
    toStderr(`barrage: ${redactor.message(text)}\n`);
  };
  // Every file the run writes, checked before any traffic: nothing may block in open(2).
  const unwritable = checkOutputPaths(context.cwd, outputPathsOf(plan));
  if (unwritable !== undefined) {
    context.stderr.write(`barrage: ${redactor.message(unwritable)} (nothing was sent)\n`);
    return ExitCode.Failed;
  }
  // A file it cannot open is a problem of the configuration (exit 1), before any traffic.
  const debugLog =
    plan.httpDebug === undefined
      ? undefined
      : (await import('../http-debug-log.js')).HttpDebugLog.open(loaded, plan.httpDebug, {
          cwd: context.cwd,
          redactor,
          stderr: toStderr,
          warn,
          nowMs: () => systemClock.nowUs() / 1000,
        });
  let outputs: LiveOutputs | undefined;
  try {
    // Imported only by a run that has outputs: the others load none of their machinery.
    if (plan.outputs.outputs.length > 0)
      outputs = await (
        await import('../live-outputs.js')
      ).startLiveOutputs(plan, context.cwd, warn);
  } catch (error) {
    context.stderr.write(
      `barrage: ${redactor.text(`cannot open the outputs: ${error instanceof Error ? error.message : String(error)}`)} (nothing was sent)\n`,
    );
    debugLog?.close();
    return ExitCode.Failed;
  }
  let reported = false;
  // An abort_on_fail threshold that fails on the live figures stops the run as a first SIGINT does.
  const judge = watchAbortThresholds(
    plan.thresholds,
    (s) => endpointTable(plan, s),
    (abort) => {
      aborted = abort;
      if (view?.ownsTerminal !== true) context.stderr.write(abortNotice(abort, redactor));
      stop.abort();
    },
  );
  // SIGINT/SIGTERM/SIGHUP, and the dashboard's q and Ctrl+C keys (raw mode turns Ctrl+C into a
  // key). The first stops dispatch and gives in-flight work the stop grace (docs/reports.md,
  // Signals); a second signal, or the grace's end, writes every report from the last merged
  // snapshot and exits, and a watchdog thread ends the process if even that does not come.
  let graceTimer: NodeJS.Timeout | undefined;
  let watchdog: StopWatchdog | undefined;
  const endNow = (why: string): void => {
    hardStop.abort();
    view?.close();
    if (why !== '') context.stderr.write(`\nbarrage: ${why}: writing the reports and exiting\n`);
    // Before the first snapshot (in its first half second) the run has recorded nothing yet.
    const collected = latest ?? emptySnapshot(plan, systemClock);
    const httpDebug = debugCounts(debugLog, collected);
    const raw = toRawResult(
      loaded,
      { ...collected, interrupted: true },
      { aborted, httpDebug },
      redactor,
    );
    deliver(context, output, plan.report, raw, renderers);
    context.exitNow(ExitCode.Interrupted);
  };
  const interrupt = (signal: UserSignal): void => {
    signals++;
    // Reported already: the outputs are draining, and a second signal gives up on them.
    if (reported) {
      if (signals > 1) hardStop.abort();
      return;
    }
    if (signals > 1) return endNow(signal === 'SIGINT' ? '' : `a second signal (${signal})`);
    // The dashboard says it on screen; a line on stderr would tear its frame.
    if (view?.ownsTerminal !== true)
      context.stderr.write(
        `\nbarrage: ${signal}: stopping; in-flight work gets up to ${formatDuration(plan.stopGraceMs)} (${signal === 'SIGINT' ? 'Ctrl+C' : signal} again to stop now)\n`,
      );
    stop.abort();
    graceTimer = setTimeout(
      () => endNow(`the stop grace (${formatDuration(plan.stopGraceMs)}) ended`),
      plan.stopGraceMs,
    );
    watchdog = startStopWatchdog(Date.now() + plan.stopGraceMs + WATCHDOG_MARGIN_MS);
  };
  const unsubscribe = context.onSignal(interrupt);
  try {
    view = openLiveView(context, loaded, liveMode(context, output), {
      stopping: stop.signal,
      onQuit: () => interrupt('SIGINT'),
    });
    const { snapshot, fatal } = await execute(plan, systemClock, {
      threads: resolveThreads(plan, availableParallelism()),
      offMainThread: outputs !== undefined,
      stop: stop.signal,
      hardStop: hardStop.signal,
      onProgress: (s, live) => {
        latest = s;
        judge?.(s);
        outputs?.update(s);
        view?.update(s, live);
      },
      execPath: context.execPath,
      env: context.env,
      onExit: context.onExit,
      onWarning: warn,
      // --quiet: a scenario's console prints nothing.
      ...(output.quiet ? {} : { onConsole: warn }),
      ...(debugLog === undefined ? {} : { onHttpDebug: (record) => debugLog.write(record) }),
    });
    outputs?.end(snapshot);
    // The terminal is restored before anything is printed below the dashboard.
    view.close();
    for (const line of held.splice(0)) context.stderr.write(line);
    if (heldOver > 0)
      context.stderr.write(
        `barrage: ${heldOver} more lines came while the dashboard ran (${MAX_HELD_LINES} are kept)\n`,
      );
    const httpDebug = debugCounts(debugLog, snapshot);
    const raw = toRawResult(loaded, snapshot, { fatal, aborted, httpDebug }, redactor);
    const code = deliver(context, output, plan.report, raw, renderers);
    reported = true;
    clearTimeout(graceTimer);
    watchdog?.disarm();
    for (const line of (await outputs?.drain(hardStop.signal)) ?? []) warn(line);
    return code;
  } finally {
    clearTimeout(graceTimer);
    watchdog?.disarm();
    view?.close();
    unsubscribe();
    debugLog?.close();
  }
}

/** The debug log's counts, with the lines the segments' own bound dropped; undefined when off. */
function debugCounts(
  log: HttpDebugLog | undefined,
  snapshot: ShardSnapshot,
): HttpDebugCounts | undefined {
  if (log === undefined) return undefined;
  const own = log.counts();
  return { written: own.written, dropped: own.dropped + (snapshot.httpDebugDropped ?? 0) };
}

/** The line that says which threshold stopped the run, and when. */
function abortNotice(abort: ThresholdAbort, redactor: Redactor): string {
  const text = abortText({ ...abort, threshold: redactor.text(abort.threshold) });
  return `\nbarrage: threshold ${text} (abort_on_fail): stopping; in-flight requests finish\n`;
}

function liveMode(context: BarrageContext, output: RunOutput): LiveMode {
  return chooseLiveMode({
    isTTY: context.isTTY,
    env: context.env,
    dashboard: output.dashboard,
    jsonOutput: output.jsonOutput,
    quiet: output.quiet,
  });
}

/** Prints and writes every report of `raw`; returns the exit code its outcome gives. */
function deliver(
  context: BarrageContext,
  output: RunOutput,
  paths: ReportPlan,
  raw: RawResult,
  renderers: Renderers,
): ExitCode {
  return deliverOutcome(
    context,
    resultOutcome(context, {
      paths,
      raw,
      report: {
        ...reportFromRaw(raw),
        ...(output.baseline === undefined ? {} : { baseline: output.baseline }),
      },
      jsonOutput: output.jsonOutput,
      renderers,
      fatalNote: (fatal) => `the run stopped: ${fatal}`,
    }),
  );
}
