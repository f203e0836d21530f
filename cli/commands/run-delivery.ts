/**
 * The delivery of a run's reports: its snapshot (final, or the last merged one when a stop cut
 * the run short) with how it ended, turned into the raw result, printed and written to every
 * report file; the outcome gives the exit code.
 */
import type { Loaded } from '../../dsl/load-plan.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
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
  const { loaded, context, output, redactor, renderers } = delivery;
  const raw = toRawResult(loaded, snapshot, ending, redactor);
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
    }),
  );
}
