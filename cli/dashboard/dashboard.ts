/**
 * The live dashboard (spec §1.13): while the run goes, it owns the terminal and refreshes every
 * DASHBOARD_TICK_MS. Each tick checks for cancellation (the run's stop signal: the frame then says
 * "stopping"), reads the terminal size, computes the frame from the latest snapshot and live
 * state, lays it out and draws the lines that changed. Keys are handled as they arrive: `q` and
 * Ctrl+C (a key in raw mode, not a signal) call onQuit, the same path as the first SIGINT; pressed
 * again, the same path as the second. A resize redraws at once. close() restores the terminal.
 */
import type { Readable, Writable } from 'node:stream';
import type { Plan } from '../../model/plan/plan.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { LiveState } from '../../runtime/segment/live-state.js';
import { buildModel } from './dashboard-model.js';
import { ErrorFeed } from './error-feed.js';
import { SecondLatencies } from './latency-trend.js';
import { renderScreen, type ScreenSize } from './screen.js';
import { toAnsi } from './styled-line.js';
import { TerminalSession } from './terminal-session.js';

/** Refresh period (spec §8). */
export const DASHBOARD_TICK_MS = 500;

/** Keys that stop the run: q, Q and Ctrl+C (ETX in raw mode). */
const QUIT_KEYS: ReadonlySet<string> = new Set(['q', 'Q', '\u0003']);

/** The terminal as the dashboard uses it. */
export interface DashboardIo {
  readonly stdout: Writable;
  readonly stdin: Readable;
  readonly setRawMode: ((on: boolean) => void) | undefined;
  readonly terminalSize: () => ScreenSize;
  readonly onResize: (handler: () => void) => () => void;
  readonly onExit: (handler: () => void) => () => void;
}

/** What the dashboard shows and how it reports a quit key. */
export interface DashboardOptions {
  readonly plan: Plan;
  /** The run's name in the header (the target, secrets removed). */
  readonly title: string;
  /**
   * The names of a snapshot's endpoints as they may be shown (a default name is a url: secrets
   * removed): those a TypeScript scenario met, else the plan's.
   */
  readonly endpointNames: (snapshot: ShardSnapshot | undefined) => readonly string[];
  readonly color: boolean;
  /** Aborted once the run is stopping (a key, a signal, or the run's own end). */
  readonly stopping: AbortSignal;
  /** Called for each quit key. */
  readonly onQuit: () => void;
}

/** The running dashboard. */
export class Dashboard {
  readonly #session: TerminalSession;
  readonly #feed = new ErrorFeed();
  readonly #latencies = new SecondLatencies();
  #snapshot: ShardSnapshot | undefined;
  #live: LiveState | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void)[] = [];

  constructor(
    private readonly io: DashboardIo,
    private readonly options: DashboardOptions,
  ) {
    this.#session = new TerminalSession(io);
  }

  /** Takes the terminal and starts the refresh loop. */
  start(): void {
    this.#session.enter();
    if (this.io.setRawMode !== undefined) {
      const onData = (chunk: Buffer | string): void => this.#keys(String(chunk));
      this.io.stdin.on('data', onData);
      this.#unsubscribe.push(() => {
        this.io.stdin.off('data', onData);
        this.io.stdin.pause();
      });
    }
    this.#unsubscribe.push(
      this.io.onResize(() => {
        this.#session.invalidate();
        this.#tick();
      }),
    );
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), DASHBOARD_TICK_MS);
  }

  /** The latest cumulative snapshot and live state (every ~500 ms from the run). */
  update(snapshot: ShardSnapshot, live: LiveState): void {
    this.#snapshot = snapshot;
    this.#live = live;
    this.#feed.update(snapshot, this.options.endpointNames(snapshot));
  }

  /** Stops the loop and restores the terminal exactly. Idempotent. */
  close(): void {
    clearInterval(this.#timer);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    this.#session.leave();
  }

  #keys(text: string): void {
    for (const key of text) if (QUIT_KEYS.has(key)) this.options.onQuit();
  }

  #tick(): void {
    const model = buildModel({
      plan: this.options.plan,
      title: this.options.title,
      endpointNames: this.options.endpointNames(this.#snapshot),
      latency: this.#latencies.trend(this.#snapshot),
      snapshot: this.#snapshot,
      live: this.#live,
      stopping: this.options.stopping.aborted,
      latestErrors: this.#feed.events,
    });
    const lines = renderScreen(model, this.io.terminalSize());
    this.#session.draw(lines.map((line) => toAnsi(line, this.options.color)));
  }
}
