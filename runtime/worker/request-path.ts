/**
 * The request path (DESIGN.md §3): one logical request of a virtual user, used alike by YAML
 * iterations (iteration.ts) and TypeScript scenarios' http calls (script-ops.ts): build it from
 * the compiled parts, inject authorization, send it under one deadline, follow its redirects,
 * retry when the spec allows, record it, run its extractors or its verifier, and feed its
 * custom metrics (extract-metrics.ts).
 * A permit's request is one logical request: retries are counted apart and the latency recorded
 * is the final attempt's (service time), while the intended-time latency runs from the permit's
 * scheduled time to the final completion.
 *
 * A request follows its redirects (RFC 9110 §15.4) up to the endpoint's `max_redirects`, as a
 * browser does: 301/302 turn a POST into a GET and 303 anything but HEAD, 307/308 keep method and
 * body; each hop goes only to the request's own origin, the target or `allowed_hosts`, drops the
 * Authorization header when it leaves the origin, and carries the cookie jar's cookies for its url.
 * The hops are one logical request: one deadline, one latency from the first byte sent to the last
 * response's end, bytes summed; each hop is counted in `redirects`. Its time to first byte
 * (http_req_waiting) is the last hop's: from that hop's send to its response headers.
 *
 * The path is written with callbacks, not async functions: each level of async function costs a
 * promise and a microtask per request, and four of them cost more than a tenth of the
 * throughput (docs/performance.md). A virtual user's request lives in an InFlight reused for every
 * request, with its callbacks bound once. Its states, each left by one callback:
 *
 *   state         left by                              to
 *   authorizing   the provider's value (#authorized)    filling; NO_TOKEN: done(false), nothing sent
 *   filling       fill()                               sending; unsent: done(false); encoding
 *   encoding      finishBody() (#sendEncoded)          sending
 *   sending       the exchange's end (exchanged)       following; backing off; recording
 *   following     the hop's end (exchanged)            following; backing off; recording
 *   backing off   the backoff's end (backedOff)        authorizing again, then sending; recording
 *                 a hard stop (backoffWait)            recording (the failed attempt stands)
 *   recording     #record                              done(ok)
 *
 * Recording a failed request also offers it to the capture (exchange-capture.ts: the sample
 * failures, the HTTP debug log); a successful one only when the log asks for every request.
 */
import type { RetryPlan } from '../../model/plan/plan.js';
import { NO_TOKEN, type AuthProvider, type Authorization } from '../auth/auth-provider.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { classifyError, classifyStatus } from '../failure/error-kind.js';
import { backoffMs, isRetryable } from '../failure/retry.js';
import type { RetryBudget } from '../failure/retry-budget.js';
import { BODY_PENDING, type CompiledRequest } from '../http/compiled-request.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import { fillHop, REDIRECT_STATUSES, redirectTarget } from '../http/redirect-hop.js';
import type { Recorder } from '../metrics/recorder.js';
import { setLongTimeout } from '../schedule/long-timer.js';
import { runExtractors } from '../vars/extract.js';
import { recordEndpointMetrics } from '../vars/extract-metrics.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import { ExchangeCapture, type CaptureDeps } from './exchange-capture.js';
import { InFlight } from './in-flight.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** Called when a logical request is over: true when it succeeded. */
export type RequestDone = (ok: boolean) => void;

/** What the request path needs from its segment. */
export interface RequestPathDeps {
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly auth: AuthProvider | undefined;
  readonly retry: RetryPlan | undefined;
  readonly budget: RetryBudget | undefined;
  /** True once the run is stopping: no new retries. */
  readonly stopping: () => boolean;
  /** Each virtual user keeps a cookie jar. */
  readonly cookies: boolean;
  /** Where redirects may lead besides the request's own origin. */
  readonly hosts: AllowedHosts;
  /** Sample failures and the HTTP debug log; absent: nothing is captured (setup(), teardown()). */
  readonly capture?: CaptureDeps;
}

/** Sends the logical requests of a segment's virtual users. */
export class RequestPath {
  readonly #flights = new Map<VirtualUser, InFlight>();
  readonly #capture: ExchangeCapture | undefined;
  /** Successful requests are captured too. */
  readonly #captureAll: boolean;

  constructor(private readonly deps: RequestPathDeps) {
    this.#capture =
      deps.capture === undefined ? undefined : new ExchangeCapture(deps.capture, deps.recorder);
    this.#captureAll = deps.capture?.debug?.all === true;
  }

  /**
   * Sends a request (auth injection, one deadline per attempt, retries) and records it under
   * endpoint `index`; `done(ok)` is called when it is over, which may be before this returns
   * (nothing was sent), and `fail` on a throw along the way (a bug). The exchange keeps the
   * response for the caller (a TypeScript scenario's response object).
   */
  send(
    vu: VirtualUser,
    compiled: CompiledRequest,
    index: number,
    intendedUs: number,
    done: RequestDone,
    fail: (error: unknown) => void,
  ): void {
    let flight = this.#flights.get(vu);
    if (flight === undefined) {
      flight = new InFlight(
        vu,
        this,
        (f) => this.#exchanged(f),
        (f) => this.#backedOff(f),
        (f) => this.#record(f),
        (f, atUs, previousUs) => this.#streamPiece(f, atUs, previousUs),
      );
      this.#flights.set(vu, flight);
    }
    flight.done = done;
    flight.fail = fail;
    this.#send(flight, compiled, index, intendedUs);
  }

  /** Runs a callback of the request path; a throw (a bug) fails the request's caller. */
  guard(flight: InFlight, step: (flight: InFlight) => void): void {
    try {
      step(flight);
    } catch (error) {
      flight.fail(error);
    }
  }

  /** Authorization first: the OAuth 2.0 provider may have to wait for a token. */
  #send(flight: InFlight, compiled: CompiledRequest, index: number, intendedUs: number): void {
    flight.compiled = compiled;
    flight.index = index;
    flight.requestIntendedUs = intendedUs;
    flight.attempt = 0;
    if (this.deps.auth === undefined) this.#authorized(flight, undefined);
    else this.#authorize(flight, this.#authorized);
  }

  /**
   * The auth provider's value for the flight's user, passed to `next` at once, or once the
   * provider has it (the OAuth 2.0 provider may have to wait for a token).
   */
  #authorize(flight: InFlight, next: (flight: InFlight, value: Authorization) => void): void {
    const value = this.deps.auth!.authorization(flight.vu.vars, flight.vu.random);
    if (typeof value !== 'object') next(flight, value);
    else value.then((resolved) => this.guard(flight, (c) => next(c, resolved)), flight.fail);
  }

  readonly #authorized = (flight: InFlight, authorization: Authorization): void => {
    // The OAuth 2.0 provider gave up and the run is stopping: nothing is sent or counted.
    if (authorization === NO_TOKEN) {
      flight.done(false);
      return;
    }
    const { vu, compiled } = flight;
    flight.authorization = authorization;
    const cookies = this.deps.cookies ? vu.cookies : undefined;
    const filled = compiled!.fill(vu.options, vu.vars, vu.random, authorization, cookies);
    if (typeof filled === 'string') {
      const missing = filled === 'missing_variable' ? vu.vars : undefined;
      flight.done(this.#unsent(compiled!, filled, missing));
      return;
    }
    this.deps.budget?.deposit();
    if (filled === BODY_PENDING) {
      // A multipart body with placeholders is encoded asynchronously, once per request.
      compiled!
        .finishBody(vu.options)
        .then((bytes) => this.guard(flight, (c) => this.#sendEncoded(c, bytes)), flight.fail);
      return;
    }
    flight.bytesOut = filled;
    this.#attempt(flight);
  };

  /** The first attempt of a request whose body was encoded after fill(). */
  #sendEncoded(flight: InFlight, bytesOut: number): void {
    flight.bytesOut = bytesOut;
    this.#attempt(flight);
  }

  /** One attempt under its own deadline. */
  #attempt(flight: InFlight): void {
    const { vu, compiled } = flight;
    const endpoint = compiled!.endpoint;
    flight.attempt++;
    flight.hops = 0;
    flight.hopBytesIn = 0;
    flight.hopBytesOut = 0;
    flight.redirectKind = undefined;
    flight.startUs = this.deps.now();
    flight.sendUs = flight.startUs;
    vu.connectUs = -1;
    vu.tlsUs = -1;
    vu.deadlineUs = flight.startUs + endpoint.timeoutMs * 1000;
    vu.sent = vu.options;
    this.#startExchange(flight);
    vu.client(vu.options.origin).dispatch(vu.options, vu.exchange);
  }

  /** Readies the exchange for an attempt or a hop: a stream endpoint's with its listener. */
  #startExchange(flight: InFlight): void {
    const { vu, compiled } = flight;
    const stream = compiled!.endpoint.stream;
    vu.firstPieceUs = -1;
    if (stream === undefined)
      vu.exchange.start(compiled!.keepBody, flight.exchanged, this.deps.now);
    else
      vu.exchange.start(
        compiled!.keepBody,
        flight.exchanged,
        this.deps.now,
        flight.stream,
        stream.kind,
        (stream.idleTimeoutMs ?? 0) * 1000,
      );
  }

  /**
   * A stream's event or chunk: its first is timed from the hop's send, less the connection it
   * opened (as http_req_waiting), the next ones from the one before. Recorded as they come,
   * retried attempts' included: they were received.
   */
  #streamPiece(flight: InFlight, atUs: number, previousUs: number): void {
    const { vu } = flight;
    const kind = flight.compiled!.endpoint.stream!.kind;
    if (previousUs >= 0) {
      this.deps.recorder.recordStreamPiece(flight.index, kind, -1, atUs - previousUs);
      return;
    }
    const setUp = Math.max(0, vu.connectUs) + Math.max(0, vu.tlsUs);
    vu.firstPieceUs = Math.max(0, atUs - flight.sendUs - setUp);
    this.deps.recorder.recordStreamPiece(flight.index, kind, vu.firstPieceUs, -1);
  }

  /** An attempt (or a hop) is over: follow its redirect, retry it after a backoff, or record it. */
  #exchanged(flight: InFlight): void {
    const { vu } = flight;
    const exchange = vu.exchange;
    if (exchange.error === undefined) {
      if (exchange.decodedBytes > 0) this.deps.recorder.recordDecoded(exchange.decodedBytes);
      if (this.deps.cookies && exchange.setCookies.length > 0)
        vu.cookies.storeFrom(vu.url(), exchange.headers!, exchange.setCookies);
      if (
        exchange.location >= 0 &&
        REDIRECT_STATUSES.has(exchange.status) &&
        this.#redirect(flight)
      )
        return;
    }
    flight.endUs = this.deps.now();
    vu.deadlineUs = 0;
    flight.kind =
      exchange.error !== undefined
        ? classifyError(exchange.error)
        : (exchange.failure ?? flight.redirectKind ?? classifyStatus(exchange.status));
    if (
      flight.kind !== undefined &&
      this.#shouldRetry(flight.kind, exchange.status, flight.attempt, flight.endUs)
    ) {
      const retry = this.deps.retry!;
      const waitMs = backoffMs(
        flight.attempt,
        retry.backoffMs,
        retry.maxBackoffMs,
        retry.jitter,
        vu.random,
      );
      flight.backoff = setLongTimeout(flight.backedOff, waitMs);
      vu.session = flight.backoffWait;
      return;
    }
    this.#record(flight);
  }

  /**
   * Sends the next hop of a redirect; false when the response stands as the answer (no hops
   * allowed, a Location that is not an http(s) url) or fails (`redirectKind`: too many hops, a
   * host not allowed).
   */
  #redirect(flight: InFlight): boolean {
    const { vu } = flight;
    const exchange = vu.exchange;
    const endpoint = flight.compiled!.endpoint;
    if (endpoint.maxRedirects === 0) return false;
    const base = new URL(vu.url());
    const next = redirectTarget(exchange.headers![exchange.location]!.toString('utf8'), base);
    if (next === undefined) return false;
    const sameOrigin = next.origin === base.origin;
    if (flight.hops >= endpoint.maxRedirects) flight.redirectKind = 'too_many_redirects';
    else if (!sameOrigin && !this.deps.hosts.allows(next)) flight.redirectKind = 'url_not_allowed';
    if (flight.redirectKind !== undefined) return false;
    const origin = sameOrigin ? vu.sent.origin : next.origin;
    const path = next.pathname + next.search;
    const cookie = this.deps.cookies ? vu.cookies.header(origin, path) : undefined;
    const bytesOut = fillHop(vu.hop, vu.sent, exchange.status, origin, path, sameOrigin, cookie);
    flight.hops++;
    flight.hopBytesIn += exchange.bytesIn;
    flight.hopBytesOut += bytesOut;
    this.deps.recorder.recordRedirect();
    vu.sent = vu.hop;
    flight.sendUs = this.deps.now();
    vu.connectUs = -1;
    vu.tlsUs = -1;
    this.#startExchange(flight);
    vu.client(origin).dispatch(vu.hop, exchange);
    return true;
  }

  /**
   * After a retry's backoff: with auth, the current Authorization value (the token may have been
   * renewed during the backoff, and an expired one must not be sent). When there is none, the
   * failed attempt stands as the request's result.
   */
  #backedOff(flight: InFlight): void {
    if (flight.authorization === undefined) {
      this.#retry(flight);
      return;
    }
    this.#authorize(flight, this.#reauthorized);
  }

  readonly #reauthorized = (flight: InFlight, value: Authorization): void => {
    if (typeof value !== 'string') {
      this.#record(flight);
      return;
    }
    flight.compiled!.replaceAuthorization(flight.vu.options, value);
    this.#retry(flight);
  };

  #retry(flight: InFlight): void {
    this.deps.recorder.recordRetry();
    this.#attempt(flight);
  }

  /**
   * The final attempt's outcome is the request's: run the extractors of a success (a response
   * they cannot read fails it as `extract_error`, a value the variable store refuses as
   * `variable_limit`), or the endpoint's verifier (expected statuses, extractors, checks:
   * response-verifier.ts), then record it.
   */
  #record(flight: InFlight): void {
    const { vu } = flight;
    const endpoint = flight.compiled!.endpoint;
    const exchange = vu.exchange;
    let kind = flight.kind;
    // undici refused the request itself (a header value it will not send): nothing left, so it
    // is not a request. A refused redirect hop is, since the hops before it were sent.
    if (kind === 'invalid_request' && flight.hops === 0) {
      flight.done(this.#unsent(flight.compiled!, kind, undefined));
      return;
    }
    const verifier = flight.compiled!.verifier;
    if (verifier !== undefined) {
      const us = flight.endUs - flight.startUs;
      kind = verifier.judge(kind, exchange, us, vu.vars, vu.random, this.deps.recorder);
    } else if (kind === undefined && endpoint.extract.length > 0)
      kind = runExtractors(endpoint.extract, exchange.body(), exchange.headers, vu.vars);
    const waitingUs = this.#waitingUs(flight);
    this.deps.recorder.recordRequest(
      flight.index,
      exchange.status,
      kind,
      flight.startUs,
      flight.endUs,
      flight.requestIntendedUs,
      flight.hopBytesIn + exchange.bytesIn,
      flight.bytesOut + flight.hopBytesOut,
      waitingUs,
    );
    if (exchange.status > 0)
      this.deps.recorder.recordProtocol(flight.index, vu.protocolOf(vu.sent.origin));
    if (endpoint.metrics.length > 0 && exchange.status > 0)
      recordEndpointMetrics(
        endpoint.metrics,
        exchange.body(),
        exchange.headers,
        exchange.status,
        this.deps.recorder,
        flight.endUs,
      );
    if (kind !== undefined || this.#captureAll) this.#capture?.capture(flight, kind, waitingUs);
    flight.done(kind === undefined);
  }

  /**
   * The last hop's time to first byte, less the connection it opened (as k6's waiting), which is
   * recorded apart; -1 when no headers came.
   */
  #waitingUs(flight: InFlight): number {
    const { vu } = flight;
    const headersUs = vu.exchange.headersUs;
    const waiting = headersUs < 0 ? -1 : headersUs - flight.sendUs;
    if (vu.connectUs < 0) return waiting;
    this.deps.recorder.recordConnection(flight.index, vu.connectUs, vu.tlsUs);
    return waiting < 0 ? -1 : Math.max(0, waiting - vu.connectUs - Math.max(0, vu.tlsUs));
  }

  #shouldRetry(kind: ErrorKind, status: number, attempt: number, nowUs: number): boolean {
    const retry = this.deps.retry;
    if (retry === undefined || attempt >= retry.maxAttempts || this.deps.stopping()) return false;
    if (!isRetryable(kind, status)) return false;
    return this.deps.budget?.tryWithdraw(nowUs) ?? true;
  }

  /** A request not sent; `missing` holds the variables when one of them had no value. */
  #unsent(compiled: CompiledRequest, kind: ErrorKind, missing: VariableStore | undefined): false {
    this.deps.recorder.recordUnsent(kind, unsentCause(compiled.endpoint, missing));
    return false;
  }
}
