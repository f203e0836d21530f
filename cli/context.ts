/**
 * What commands need from the outside world, passed in (the DI seam, like k6's GlobalState):
 * only cli/bin.ts builds the real one from `process`; tests build their own.
 */
import type { BaseContext } from 'clipanion';

/** A signal the user sent (SIGHUP: the terminal closed; handled like SIGTERM). */
export type UserSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Subscribes to SIGINT/SIGTERM/SIGHUP; returns the unsubscribe function. */
export type SignalSubscriber = (handler: (signal: UserSignal) => void) => () => void;

/** The command context. */
export interface BarrageContext extends BaseContext {
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  /** True when stdout is a terminal. */
  readonly isTTY: boolean;
  readonly onSignal: SignalSubscriber;
  /** The node binary, for child processes (scripted segments). */
  readonly execPath: string;
  /** Exits the process at once with this code (second Ctrl+C); tests record it instead. */
  readonly exitNow: (code: number) => void;
  /** Terminal size when stdout is a terminal. */
  readonly terminalSize: () => { columns: number; rows: number };
  /** Raw-mode keyboard input, when stdin is a terminal. */
  readonly setRawMode: ((on: boolean) => void) | undefined;
  /** Subscribes to terminal resizes of stdout (SIGWINCH); returns the unsubscribe function. */
  readonly onResize: (handler: () => void) => () => void;
  /**
   * Registers a last-resort cleanup run synchronously when the process exits, whatever the path
   * (a crash included); returns the unregister function.
   */
  readonly onExit: (handler: () => void) => () => void;
}
