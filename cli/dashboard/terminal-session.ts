/**
 * The terminal while the dashboard owns it: the alternate screen, a hidden cursor and raw-mode
 * keys, entered once and undone exactly once, whatever ends the run (the end, an error, the
 * second Ctrl+C, or the process exiting on a crash through the context's exit hook). Frames are
 * drawn by difference: only the lines that changed are rewritten, each as
 *   CSI row;1 H  <line>  SGR 0  CSI K          (move, draw, reset style, clear to end of line)
 * in one write per frame; a resize clears the screen and redraws every line.
 */
import type { Writable } from 'node:stream';

const ESC = '\u001b[';
/** Alternate screen on (saves the cursor too), cursor hidden, screen cleared. */
const ENTER = `${ESC}?1049h${ESC}?25l${ESC}2J`;
/** Style reset, cursor shown, main screen back (restores the cursor). */
const LEAVE = `${ESC}0m${ESC}?25h${ESC}?1049l`;

/** What the session needs from the outside. */
export interface TerminalIo {
  readonly stdout: Writable;
  readonly setRawMode: ((on: boolean) => void) | undefined;
  readonly onExit: (handler: () => void) => () => void;
}

/** The dashboard's hold on the terminal. */
export class TerminalSession {
  #previous: string[] = [];
  #open = false;
  #unhookExit: (() => void) | undefined;

  constructor(private readonly io: TerminalIo) {}

  /** Enters the alternate screen, hides the cursor and turns raw mode on. */
  enter(): void {
    if (this.#open) return;
    this.#open = true;
    this.#unhookExit = this.io.onExit(() => this.leave());
    this.io.stdout.write(ENTER);
    this.io.setRawMode?.(true);
  }

  /** Draws a frame of ANSI lines, rewriting only the lines that changed. */
  draw(lines: readonly string[]): void {
    if (!this.#open) return;
    let out = '';
    for (let row = 0; row < lines.length; row++) {
      const line = lines[row]!;
      if (this.#previous[row] === line) continue;
      out += `${ESC}${row + 1};1H${line}${ESC}0m${ESC}K`;
    }
    for (let row = lines.length; row < this.#previous.length; row++)
      out += `${ESC}${row + 1};1H${ESC}K`;
    this.#previous = [...lines];
    if (out !== '') this.io.stdout.write(out);
  }

  /** Forgets the drawn frame and clears the screen, so the next frame is drawn whole (resize). */
  invalidate(): void {
    if (!this.#open) return;
    this.#previous = [];
    this.io.stdout.write(`${ESC}2J`);
  }

  /** Restores the terminal as it was: raw mode off, cursor shown, main screen back. Idempotent. */
  leave(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#unhookExit?.();
    this.io.setRawMode?.(false);
    this.io.stdout.write(LEAVE);
  }
}
