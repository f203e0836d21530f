/**
 * The work of `barrage run` (run.ts declares the command and imports this when a run starts):
 * open the run's sinks (run-sinks.ts: output paths, the HTTP debug log, the live outputs) before
 * any traffic, execute the Plan with the live view and its stop (run-stop.ts: signals, grace,
 * watchdog, abort_on_fail), deliver the reports (run-delivery.ts), drain the outputs, and turn
 * the outcome into the exit code.
 */
import { availableParallelism } from 'node:os';
import type { Loaded } from '../../dsl/load-plan.js';
import { systemClock } from '../../runtime/schedule/clock.js';
import { emptySnapshot, execute, type ExecuteOptions } from '../../runtime/execute.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { watchAbortThresholds } from '../../runtime/thresholds/abort-on-fail.js';
import { resolveThreads } from '../../runtime/segment/auto-threads.js';
import type { BarrageContext } from '../context.js';
import {
  chooseLiveMode,
  openLiveView,
  type LiveMode,
  type LiveView,
} from '../dashboard/live-view.js';
import { ExitCode } from '../exit-code.js';
import { Redactor } from '../render/redact.js';
import { endpointTable } from '../endpoint-table.js';
import { importRenderers } from '../report-outputs.js';
import { HeldStderr } from './held-stderr.js';
import { deliverRun, type Delivery, type RunOutput } from './run-delivery.js';
import { debugCounts, openRunSinks, type RunSinks } from './run-sinks.js';
import { RunStop } from './run-stop.js';

export type { RunOutput } from './run-delivery.js';

/** Runs the loaded Plan and reports; returns the exit code. */
export async function runLoadTest(
  loaded: Loaded,
  context: BarrageContext,
  output: RunOutput,
): Promise<number> {
  const redactor = new Redactor(loaded);
  // Before the run: an interrupt reports at once, synchronously.
  const delivery: Delivery = {
    loaded,
    context,
    output,
    redactor,
    renderers: await importRenderers(loaded.plan.report),
  };
  let view: LiveView | undefined;
  const ownsTerminal = (): boolean => view?.ownsTerminal === true;
  const stderr = new HeldStderr(context.stderr, ownsTerminal);
  const warn = (text: string): void => void stderr.write(`barrage: ${redactor.message(text)}\n`);
  const sinks = await openRunSinks(loaded, context, redactor, {
    stderr: (line) => stderr.write(line),
    warn,
  });
  if (sinks === undefined) return ExitCode.Failed;
  let latest: ShardSnapshot | undefined;
  const stop: RunStop = new RunStop({
    stderr: context.stderr,
    stopGraceMs: loaded.plan.stopGraceMs,
    ownsTerminal,
    endNow: (why) => {
      view?.close();
      if (why !== '') context.stderr.write(`\nbarrage: ${why}: writing the reports and exiting\n`);
      // Before the first snapshot (in its first half second) the run has recorded nothing yet.
      const collected = latest ?? emptySnapshot(loaded.plan, systemClock);
      deliverRun(
        delivery,
        { ...collected, interrupted: true },
        { aborted: stop.aborted, httpDebug: debugCounts(sinks.debugLog, collected) },
      );
      context.exitNow(ExitCode.Interrupted);
    },
  });
  const unsubscribe = context.onSignal((signal) => stop.signal(signal));
  try {
    view = openLiveView(context, loaded, liveMode(context, output), {
      stopping: stop.stop.signal,
      onQuit: () => stop.signal('SIGINT'),
    });
    const onProgress = progressFeed(loaded, sinks, stop, redactor, view);
    const { snapshot, failure } = await execute(loaded.plan, systemClock, {
      ...executeOptions(loaded, context, output, { sinks, stop, warn }),
      onProgress: (s, live) => {
        latest = s;
        onProgress(s, live);
      },
    });
    sinks.outputs?.end(snapshot);
    // The terminal is restored before anything is printed below the dashboard.
    view.close();
    stderr.flush();
    const httpDebug = debugCounts(sinks.debugLog, snapshot);
    const code = deliverRun(delivery, snapshot, { failure, aborted: stop.aborted, httpDebug });
    stop.reported();
    for (const line of (await sinks.outputs?.drain(stop.hardStop.signal)) ?? []) warn(line);
    return code;
  } finally {
    stop.dispose();
    view?.close();
    unsubscribe();
    sinks.debugLog?.close();
  }
}

/** What a live snapshot feeds: the abort_on_fail thresholds, the live outputs and the view. */
function progressFeed(
  loaded: Loaded,
  sinks: RunSinks,
  stop: RunStop,
  redactor: Redactor,
  view: LiveView,
): NonNullable<ExecuteOptions['onProgress']> {
  const { plan } = loaded;
  // An abort_on_fail threshold that fails on the live figures stops the run as a first SIGINT does.
  const judge = watchAbortThresholds(
    plan.thresholds,
    (s) => endpointTable(plan, s),
    (abort) => stop.abortOnFail(abort, redactor),
  );
  return (s, live) => {
    judge?.(s);
    sinks.outputs?.update(s);
    view.update(s, live);
  };
}

/** The options of execute() but its progress feed. */
function executeOptions(
  loaded: Loaded,
  context: BarrageContext,
  output: RunOutput,
  run: { readonly sinks: RunSinks; readonly stop: RunStop; readonly warn: (text: string) => void },
): Omit<ExecuteOptions, 'onProgress'> {
  const { sinks, stop, warn } = run;
  const { debugLog } = sinks;
  return {
    threads: resolveThreads(loaded.plan, availableParallelism()),
    offMainThread: sinks.outputs !== undefined,
    stop: stop.stop.signal,
    hardStop: stop.hardStop.signal,
    execPath: context.execPath,
    env: context.env,
    onExit: context.onExit,
    onWarning: warn,
    // --quiet: a scenario's console prints nothing.
    ...(output.quiet ? {} : { onConsole: warn }),
    ...(debugLog === undefined ? {} : { onHttpDebug: (record) => debugLog.write(record) }),
  };
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
