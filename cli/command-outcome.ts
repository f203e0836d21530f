/**
 * The one print/write/exit step every reporting command ends with (`run`, finished or cut short,
 * `merge` and `compare`): the report on stdout, every requested file written (each whole or not
 * at all, report-files.ts), on stderr the files that could not be written and the notes the
 * command adds, then the exit code from the outcome. Each command says what to print and write;
 * none repeats how.
 */
import type { BarrageContext } from './context.js';
import { exitCodeFor, type ExitCode, type RunOutcome } from './exit-code.js';
import { writeReportFiles, type ReportFile } from './report-files.js';

/** What a command prints, writes and says, and how its run ended. */
export interface CommandOutcome {
  readonly stdout: string;
  readonly files: readonly ReportFile[];
  /** Lines for stderr after the files' failures, without the `barrage: ` prefix. */
  readonly notes: readonly string[];
  /** How it ended; a file that could not be written is added here. */
  readonly ending: Omit<RunOutcome, 'reportFailed'>;
}

/** Prints, writes, says what failed; returns the exit code. */
export function deliverOutcome(
  context: Pick<BarrageContext, 'stdout' | 'stderr' | 'cwd'>,
  outcome: CommandOutcome,
): ExitCode {
  context.stdout.write(outcome.stdout);
  const failures = writeReportFiles(context.cwd, outcome.files);
  for (const line of [...failures, ...outcome.notes]) context.stderr.write(`barrage: ${line}\n`);
  return exitCodeFor({ ...outcome.ending, reportFailed: failures.length > 0 });
}
