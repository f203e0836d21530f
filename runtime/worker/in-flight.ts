/**
 * One virtual user's logical request in flight, kept in one object reused for every request, with
 * its callbacks bound once (docs/performance.md: the request path is written with callbacks, not
 * async functions). RequestPath moves it through the states request-path.ts lists.
 */
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { ReauthPlan } from '../../model/plan/endpoint-plan.js';
import type { CompiledRequest } from '../http/compiled-request.js';
import type { StreamListener } from '../http/stream-listener.js';
import { LlmReader } from '../http/llm-reader.js';
import type { LongTimeout } from '../schedule/long-timer.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import type { RequestDone, RequestPath } from './request-path.js';
import type { Abortable } from '../../model/errors/barrage-error.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** A virtual user's request in flight. */
export class InFlight {
  compiled: CompiledRequest | undefined;
  index = 0;
  requestIntendedUs = NO_INTENDED_TIME;
  authorization: string | undefined;
  /** The bytes of the request as filled (each attempt's first exchange sends them). */
  bytesOut = 0;
  /** The bytes of the exchange under way (the filled request's, or a redirect hop's). */
  exchangeBytesOut = 0;
  /** Redirect hops of this attempt. */
  hops = 0;
  /** Why following a redirect failed (too_many_redirects, url_not_allowed). */
  redirectKind: ErrorKind | undefined;
  attempt = 0;
  /** The endpoint's `reauth`, until it was used (undefined: none, or a refresh's own request). */
  reauth: ReauthPlan | undefined;
  /** When the logical request's first attempt was sent: its total duration runs from it. */
  firstUs = 0;
  /** When the exchange under way was sent (an attempt, or a redirect's hop). */
  sendUs = 0;
  /** When the last exchange ended. */
  endUs = 0;
  /** When the backoff under way began. */
  waitStartUs = 0;
  kind: ErrorKind | undefined;
  done: RequestDone = () => undefined;
  fail: (error: unknown) => void = () => undefined;
  /** The retry backoff under way, if any. */
  backoff: LongTimeout | undefined;
  /** Bound once: the exchange's completion, the end of a retry's backoff. */
  readonly exchanged: () => void;
  readonly #resumed: () => void;
  readonly backedOff: () => void;
  /**
   * The backoff as what a hard stop cuts (`vu.session` while it lasts): a backoff may be as long
   * as `max_backoff` (up to a year), and the run must not wait for it. The failed attempt stands.
   */
  readonly backoffWait: Abortable;
  /** A stream endpoint's events or chunks, as they come (bound once). */
  readonly stream: StreamListener;
  readonly #tokenGap: (gapUs: number) => void;
  #llm: LlmReader | undefined;

  constructor(
    readonly vu: VirtualUser,
    path: RequestPath,
    onExchange: (flight: InFlight) => void,
    onBackoff: (flight: InFlight) => void,
    onBackoffCut: (flight: InFlight) => void,
    onPiece: (flight: InFlight, atUs: number, previousUs: number) => void,
    onTokenGap: (flight: InFlight, gapUs: number) => void,
  ) {
    this.stream = { streamPiece: (atUs, previousUs) => onPiece(this, atUs, previousUs) };
    this.#tokenGap = (gapUs) => onTokenGap(this, gapUs);
    this.#resumed = () => path.guard(this, onExchange);
    // The next request is dispatched from the completion callback. undici allows that after a
    // response, but not from its error path, which may run inside dispatch() itself (a refused
    // header) or assert that the queue it fails stays empty (a refused connection): after an
    // error, the worker goes on in the next turn.
    this.exchanged = () => {
      if (vu.exchange.error !== undefined) setImmediate(this.#resumed);
      else this.#resumed();
    };
    this.backedOff = () => {
      this.#endBackoff();
      path.guard(this, onBackoff);
    };
    this.backoffWait = {
      abort: () => {
        this.backoff?.clear();
        this.#endBackoff();
        path.guard(this, onBackoffCut);
      },
    };
  }

  /** The user's LLM token reader, made for its first LLM endpoint's request. */
  get llm(): LlmReader {
    return (this.#llm ??= new LlmReader(this.#tokenGap));
  }

  #endBackoff(): void {
    this.backoff = undefined;
    if (this.vu.session === this.backoffWait) this.vu.session = undefined;
  }
}
