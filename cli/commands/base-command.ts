/**
 * Every barrage command extends this. clipanion prints errors to stdout and a resolving catch()
 * turns the exit code into 0 (STYLE.md, "two clipanion traps"): here each command catches its own
 * errors, writes them to stderr, and returns 1, so stdout stays clean for --json-output.
 */
import { Command } from 'clipanion';
import { ConfigError } from '../../dsl/issues.js';
import type { BarrageContext } from '../context.js';
import { ExitCode } from '../exit-code.js';
import { CONFIGURATION_ISSUES, formatIssues } from '../render/user-errors.js';

/** A command whose failures become stderr text and exit code 1. */
export abstract class BaseCommand extends Command<BarrageContext> {
  /** The command's work; returns the exit code. */
  abstract run(): Promise<number>;

  /** What this command's input problems are in, for the heading of its error block. */
  protected readonly issuesIn: string = CONFIGURATION_ISSUES;

  /** clipanion's entry point. */
  async execute(): Promise<number> {
    try {
      return await this.run();
    } catch (error) {
      if (error instanceof ConfigError) {
        this.context.stderr.write(formatIssues(error.issues, this.issuesIn));
      } else {
        // A bug: keep its stack so it can be reported and fixed.
        const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
        this.context.stderr.write(`barrage: internal error: ${text}\n`);
      }
      return ExitCode.Failed;
    }
  }
}
