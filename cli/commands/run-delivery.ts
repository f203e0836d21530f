/**
 * The delivery of a run's reports: its snapshot (final, or the last merged one when a stop cut
 * the run short) with how it ended, turned into the raw result, printed and written to every
 * report file; the outcome gives the exit code.
 */
import type { Loaded } from '../../dsl/load-plan.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { RawResult } from '../../runtime/raw-result.js';
import type { BarrageContext } from '../context.js';
import { deliverOutcome } from '../command-outcome.js';
import type { ExitCode } from '../exit-code.js';
import type { Redactor } from '../render/redact.js';
import type { BaselineOverlay } from '../render/run-report.js';
import { resultOutcome, type Renderers } from '../report-outputs.js';
import { reportFromRaw, toRawResult, type RunEnding } from '../run-report-builder.js';

/** The output flags of `run`. */
export interface RunOutput {
  readonly jsonOutput: boolean;
  readonly dashboard: boolean;
  readonly quiet: boolean;
  /** The baseline run the HTML report draws beside this one. */
  readonly baseline: BaselineOverlay | undefined;
  /**
   * Instead of reporting this process's result: what a segment of a rendezvous does with it
   * (rendezvous-run.ts); `deliverOwn` reports it as a run without it would.
   */
  readonly finish?: (raw: RawResult, deliverOwn: () => ExitCode) => Promise<ExitCode>;
}

/** What a run's reports are delivered with, fixed before it starts. */
export interface Delivery {
  readonly loaded: Loaded;
  readonly context: BarrageContext;
  readonly output: RunOutput;
  readonly redactor: Redactor;
  readonly renderers: Renderers;
}

/** Prints and writes every report of the run; returns the exit code its outcome gives. */
export function deliverRun(
  delivery: Delivery,
  snapshot: ShardSnapshot,
  ending: RunEnding,
): ExitCode {
  return deliverRaw(delivery, runRaw(delivery, snapshot, ending));
}

/** The run's raw result (what every report and `--raw` are made of). */
export function runRaw(delivery: Delivery, snapshot: ShardSnapshot, ending: RunEnding): RawResult {
  return toRawResult(delivery.loaded, snapshot, ending, delivery.redactor);
}

/** Prints and writes every report of a raw result of this run; returns the exit code. */
export function deliverRaw(delivery: Delivery, raw: RawResult): ExitCode {
  const { loaded, context, output, renderers } = delivery;
  return deliverOutcome(
    context,
    resultOutcome(context, {
      paths: loaded.plan.report,
      raw,
      report: {
        ...reportFromRaw(raw),
        ...(output.baseline === undefined ? {} : { baseline: output.baseline }),
      },
      jsonOutput: output.jsonOutput,
      renderers,
      fatalNote: (fatal) => `the run stopped: ${fatal}`,
      // A segment's thresholds are the whole run's, judged by the merge.
      judgeThresholds: raw.segment.count === 1,
    }),
  );
}
