/**
 * How a run is stopped (docs/reports.md, Signals). SIGINT/SIGTERM/SIGHUP, the dashboard's q and
 * Ctrl+C keys (raw mode turns Ctrl+C into a key), and an abort_on_fail threshold that fails on the
 * live figures. The first stops dispatch and gives in-flight work the stop grace; a second signal,
 * or the grace's end, calls `endNow` (which writes every report from the last merged snapshot and
 * exits), and a watchdog thread ends the process if even that does not come. Once the reports
 * are delivered the outputs drain, and a second signal gives up on them.
 */
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { ThresholdAbort } from '../../runtime/thresholds/abort-on-fail.js';
import type { BarrageContext, UserSignal } from '../context.js';
import { abortText } from '../render/report-figures.js';
import type { Redactor } from '../render/redact.js';
import { startStopWatchdog, WATCHDOG_MARGIN_MS, type StopWatchdog } from '../stop-watchdog.js';

/** What a stop needs from the run. */
export interface StopHooks {
  readonly stderr: BarrageContext['stderr'];
  readonly stopGraceMs: number;
  /** True while the dashboard owns the terminal (and says on screen what a line would). */
  readonly ownsTerminal: () => boolean;
  /** Writes every report from the last snapshot and exits; `why` ('' for none) is said first. */
  readonly endNow: (why: string) => void;
}

/** The stop of one run: its two abort signals, its grace timer and its watchdog. */
export class RunStop {
  /** Stops dispatch: in-flight work gets the grace. */
  readonly stop = new AbortController();
  /** Cuts in-flight work. */
  readonly hardStop = new AbortController();
  readonly #hooks: StopHooks;
  #signals = 0;
  #reported = false;
  #aborted: ThresholdAbort | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #watchdog: StopWatchdog | undefined;

  constructor(hooks: StopHooks) {
    this.#hooks = hooks;
  }

  /** The abort_on_fail threshold that stopped the run, if one did. */
  get aborted(): ThresholdAbort | undefined {
    return this.#aborted;
  }

  /** A signal from the user (or the dashboard's keys). */
  signal(signal: UserSignal): void {
    this.#signals++;
    if (this.#reported) {
      if (this.#signals > 1) this.hardStop.abort();
      return;
    }
    if (this.#signals > 1)
      return this.#endNow(signal === 'SIGINT' ? '' : `a second signal (${signal})`);
    const grace = formatDuration(this.#hooks.stopGraceMs);
    // The dashboard says it on screen; a line on stderr would tear its frame.
    if (!this.#hooks.ownsTerminal())
      this.#hooks.stderr.write(
        `\nbarrage: ${signal}: stopping; in-flight work gets up to ${grace} (${signal === 'SIGINT' ? 'Ctrl+C' : signal} again to stop now)\n`,
      );
    this.stop.abort();
    this.#graceTimer = setTimeout(
      () => this.#endNow(`the stop grace (${grace}) ended`),
      this.#hooks.stopGraceMs,
    );
    this.#watchdog = startStopWatchdog(Date.now() + this.#hooks.stopGraceMs + WATCHDOG_MARGIN_MS);
  }

  /** An abort_on_fail threshold failed: stops the run as a first SIGINT does. */
  abortOnFail(abort: ThresholdAbort, redactor: Redactor): void {
    this.#aborted = abort;
    if (!this.#hooks.ownsTerminal()) this.#hooks.stderr.write(abortNotice(abort, redactor));
    this.stop.abort();
  }

  /** The reports are delivered: the grace and the watchdog are over; signals now cut the drain. */
  reported(): void {
    this.#reported = true;
    this.dispose();
  }

  /** Clears the grace timer and disarms the watchdog. */
  dispose(): void {
    clearTimeout(this.#graceTimer);
    this.#watchdog?.disarm();
  }

  #endNow(why: string): void {
    this.hardStop.abort();
    this.#hooks.endNow(why);
  }
}

/** The line that says which threshold stopped the run, and when. */
function abortNotice(abort: ThresholdAbort, redactor: Redactor): string {
  const text = abortText({ ...abort, threshold: redactor.text(abort.threshold) });
  return `\nbarrage: threshold ${text} (abort_on_fail): stopping; in-flight requests finish\n`;
}
