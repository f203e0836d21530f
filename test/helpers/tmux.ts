/**
 * A tmux session on a private socket, for tests that drive the CLI in a real pseudo-terminal:
 * start a command at a size, read the screen (capture-pane), type keys, resize, and ask tmux
 * about the pane (alternate screen, cursor). The server is killed in `close()`.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when tmux is on PATH. */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V']).status === 0;
}

/** One tmux server with one session. */
export class TmuxSession {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts `command` (run by sh) in a detached session of columns × rows. */
  static start(name: string, command: string, columns: number, rows: number): TmuxSession {
    const session = new TmuxSession(`barrage-test-${process.pid}-${name}`);
    session.#tmux(
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(columns),
      '-y',
      String(rows),
      command,
    );
    return session;
  }

  /** The visible screen as plain text (with `history`, the scrollback too). */
  screen(history = false): string {
    return this.#tmux('capture-pane', '-p', '-t', 'main', ...(history ? ['-S', '-500'] : []));
  }

  /** The visible screen with its escape sequences (colors and attributes as tmux re-encodes them). */
  screenWithEscapes(): string {
    return this.#tmux('capture-pane', '-p', '-e', '-t', 'main');
  }

  /** A pane format, e.g. `#{alternate_on}`. */
  format(format: string): string {
    return this.#tmux('display-message', '-p', '-t', 'main', format).trim();
  }

  /** Types keys (tmux key names: q, C-c…). */
  keys(...keys: string[]): void {
    this.#tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Resizes the window. */
  resize(columns: number, rows: number): void {
    this.#tmux('resize-window', '-t', 'main', '-x', String(columns), '-y', String(rows));
  }

  /** Polls the screen until `done` holds; returns it, or throws with the last screen after `ms`. */
  async waitFor(done: (screen: string) => boolean, ms: number, history = false): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const screen = this.screen(history);
      if (done(screen)) return screen;
      if (Date.now() > end) throw new Error(`timed out after ${ms} ms; the screen:\n${screen}`);
      await sleep(200);
    }
  }

  /** Kills the server and everything in it. */
  close(): void {
    spawnSync('tmux', ['-L', this.#socket, 'kill-server']);
  }

  #tmux(...args: string[]): string {
    const result = spawnSync('tmux', ['-L', this.#socket, '-f', '/dev/null', ...args], {
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr}`);
    return result.stdout;
  }
}
