/**
 * stderr while the dashboard owns the terminal: a warning (a scenario's errors and console lines
 * too) written then would tear its frame, so it waits below it — MAX_HELD_LINES of them at most —
 * and is printed once the dashboard is closed.
 */
import type { BarrageContext } from '../context.js';

/** Lines kept while the dashboard owns the terminal, printed once it is closed. */
export const MAX_HELD_LINES = 1000;

/** stderr, held while `ownsTerminal()` says the dashboard has the terminal. */
export class HeldStderr {
  readonly #stderr: BarrageContext['stderr'];
  readonly #ownsTerminal: () => boolean;
  readonly #held: string[] = [];
  #over = 0;

  constructor(stderr: BarrageContext['stderr'], ownsTerminal: () => boolean) {
    this.#stderr = stderr;
    this.#ownsTerminal = ownsTerminal;
  }

  /** Writes or holds a line; false when it was dropped (past MAX_HELD_LINES held). */
  write(line: string): boolean {
    if (!this.#ownsTerminal()) this.#stderr.write(line);
    else if (this.#held.length < MAX_HELD_LINES) this.#held.push(line);
    else {
      this.#over++;
      return false;
    }
    return true;
  }

  /** Prints what was held (the terminal is restored), and how many lines were dropped. */
  flush(): void {
    for (const line of this.#held.splice(0)) this.#stderr.write(line);
    if (this.#over > 0)
      this.#stderr.write(
        `barrage: ${this.#over} more lines came while the dashboard ran (${MAX_HELD_LINES} are kept)\n`,
      );
    this.#over = 0;
  }
}
