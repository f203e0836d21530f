/**
 * A scenario's console calls as lines for the user (docs/scenarios.md, Console): each line of a
 * call's text prefixed with who printed it (`[vu 3]`, `[setup]`, `[teardown]`) and, for warn,
 * error and debug, the level; control characters (escape sequences of a target's body, say)
 * shown escaped, so that nothing printed can drive the terminal. At most LINES_PER_SECOND lines
 * are printed a second, and MAX_LINES_PER_CALL of one call; past them lines are counted, and one
 * line says how many were left out once the second is over.
 */

import { PerSecondBound } from '../debug/per-second-bound.js';

/** Lines printed a second, per process running the scenario. */
export const CONSOLE_LINES_PER_SECOND = 20;
/** Lines of one call's text printed at most. */
const MAX_LINES_PER_CALL = 20;

/** Prints a scenario's console lines through `emit`, rate-limited. */
export class ConsoleLines {
  /** A new second says first what the last one left out. */
  readonly #bound = new PerSecondBound(CONSOLE_LINES_PER_SECOND, () => this.#note());
  #suppressed = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (line: string) => void,
    private readonly nowMs: () => number,
  ) {}

  /** A console call of `who` (`vu 3`, `setup`…) at `level`; level '' counts `dropped` calls. */
  write(who: string, level: string, text: string, dropped = 0): void {
    if (level === '') {
      this.#bound.roll(this.nowMs());
      this.#count(dropped);
      return;
    }
    const prefix = level === 'log' || level === 'info' ? `[${who}] ` : `[${who}] ${level}: `;
    const lines = text.split('\n');
    const shown = Math.min(lines.length, MAX_LINES_PER_CALL);
    for (let i = 0; i < shown; i++) {
      if (this.#bound.take(this.nowMs())) this.emit(prefix + escapeControls(lines[i]!));
      else this.#count(1);
    }
    if (lines.length > shown) this.#count(lines.length - shown);
  }

  /** Says what was left out, now; ends the timer. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#note();
  }

  #count(n: number): void {
    this.#suppressed += n;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#note();
    }, 1000).unref();
  }

  #note(): void {
    if (this.#suppressed === 0) return;
    const n = this.#suppressed;
    this.#suppressed = 0;
    this.emit(
      `console: ${n} line${n === 1 ? '' : 's'} not printed (at most ${CONSOLE_LINES_PER_SECOND} a second, ${MAX_LINES_PER_CALL} a call)`,
    );
  }
}

/** Control characters but tab, as \xNN (\r and ANSI escapes included). */
function escapeControls(line: string): string {
  return line.replace(
    // eslint-disable-next-line no-control-regex
    /[\x00-\x08\x0b-\x1f\x7f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
