/**
 * One virtual user's place in its iteration and in the request it has in flight, kept in one
 * object reused for every request, with its callbacks bound once (docs/performance.md: the
 * request path is written with callbacks, not async functions). IterationRunner moves it along.
 */
import type { ThinkRange } from '../../dsl/plan/endpoint-plan.js';
import type { ErrorKind } from '../failure/error-kind.js';
import type { CompiledRequest } from '../http/compiled-request.js';
import type { LongTimeout } from '../schedule/long-timer.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import type { IterationCallbacks, IterationRunner, RequestDone } from './iteration.js';
import type { Abortable, VirtualUser } from './virtual-user.js';

/** One virtual user's place in its iteration and in its request in flight. */
export class Cursor {
  /** The iteration: endpoint indexes in order, the next one, the permit's intended time. */
  steps: readonly number[] = [];
  next = 0;
  /** The flow's pause between steps (none for a single endpoint). */
  flowThink: ThinkRange | undefined;
  /** The pause after the last step was taken: the next #step goes on. */
  rested = false;
  thinking: LongTimeout | undefined;
  intendedUs = NO_INTENDED_TIME;
  iteration: IterationCallbacks | undefined;
  /** The logical request in flight. */
  compiled: CompiledRequest | undefined;
  index = 0;
  requestIntendedUs = NO_INTENDED_TIME;
  authorization: string | undefined;
  bytesOut = 0;
  /** Redirect hops of this attempt, and their bytes (the last response's are the exchange's). */
  hops = 0;
  hopBytesIn = 0;
  hopBytesOut = 0;
  /** Why following a redirect failed (too_many_redirects, url_not_allowed). */
  redirectKind: ErrorKind | undefined;
  attempt = 0;
  startUs = 0;
  endUs = 0;
  kind: ErrorKind | undefined;
  done: RequestDone = () => undefined;
  fail: (error: unknown) => void = () => undefined;
  /** The retry backoff under way, if any. */
  backoff: LongTimeout | undefined;
  /** Bound once: the exchange's completion, the end of a step, the end of a retry's backoff. */
  readonly exchanged: () => void;
  readonly #resumed: () => void;
  readonly stepDone: RequestDone;
  readonly backedOff: () => void;
  /**
   * The backoff as what a hard stop cuts (`vu.session` while it lasts): a backoff may be as long
   * as `max_backoff` (up to a year), and the run must not wait for it. The failed attempt stands.
   */
  readonly backoffWait: Abortable;
  /** The end of a think pause, and the pause as what a stop cuts (the iteration then ends). */
  readonly thought: () => void;
  readonly thinkWait: Abortable;

  constructor(
    readonly vu: VirtualUser,
    runner: IterationRunner,
    onExchange: (cursor: Cursor) => void,
    onStep: (cursor: Cursor) => void,
    onBackoff: (cursor: Cursor) => void,
    onBackoffCut: (cursor: Cursor) => void,
    onThinkCut: (cursor: Cursor) => void,
  ) {
    this.#resumed = () => runner.guard(this, onExchange);
    // The next request is dispatched from the completion callback. undici allows that after a
    // response, but not from its error path, which may run inside dispatch() itself (a refused
    // header) or assert that the queue it fails stays empty (a refused connection): after an
    // error, the worker goes on in the next turn.
    this.exchanged = () => {
      if (vu.exchange.error !== undefined) setImmediate(this.#resumed);
      else this.#resumed();
    };
    this.stepDone = () => onStep(this);
    this.backedOff = () => {
      this.#endBackoff();
      runner.guard(this, onBackoff);
    };
    this.backoffWait = {
      abort: () => {
        this.backoff?.clear();
        this.#endBackoff();
        runner.guard(this, onBackoffCut);
      },
    };
    this.thought = () => {
      this.endThink();
      runner.guard(this, onStep);
    };
    this.thinkWait = {
      abort: () => {
        this.thinking?.clear();
        this.endThink();
        runner.guard(this, onThinkCut);
      },
    };
  }

  /** The think pause is over (or cut). */
  endThink(): void {
    this.thinking = undefined;
    if (this.vu.session === this.thinkWait) this.vu.session = undefined;
  }

  #endBackoff(): void {
    this.backoff = undefined;
    if (this.vu.session === this.backoffWait) this.vu.session = undefined;
  }
}
