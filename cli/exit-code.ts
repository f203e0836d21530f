/** The one place outcomes become process exit codes (DESIGN.md §7, spec §7.1). */

/** Process exit codes. */
export enum ExitCode {
  /** Every threshold passed, or none were defined. */
  Ok = 0,
  /** A threshold failed, or any error (bad input, unwritable report, lost segment, empty run). */
  Failed = 1,
  /** A second SIGINT cut the run short. */
  Interrupted = 130,
}

/** How a run ended, as far as the exit code cares. */
export interface RunOutcome {
  readonly thresholdsFailed: number;
  /** A fatal error stopped the run (auth gave up, a segment was lost). */
  readonly fatal: boolean;
  /** The run proved nothing: no request sent, none succeeded, or every iteration failed. */
  readonly empty: boolean;
  /** A report could not be written. */
  readonly reportFailed: boolean;
  /** An `abort_on_fail` threshold stopped the run (exit 1 even if it passes on the final figures). */
  readonly aborted: boolean;
  /** A merge lacked some segments' results (`merge --partial`, a lost peer). */
  readonly partial: boolean;
}

/** Exit code of a finished run. */
export function exitCodeFor(outcome: RunOutcome): ExitCode {
  return outcome.thresholdsFailed > 0 ||
    outcome.fatal ||
    outcome.empty ||
    outcome.reportFailed ||
    outcome.aborted ||
    outcome.partial
    ? ExitCode.Failed
    : ExitCode.Ok;
}
