/**
 * The request path (DESIGN.md §3): one logical request of a virtual user, used alike by YAML
 * iterations (iteration.ts) and TypeScript scenarios' http calls (script-ops.ts): build it from
 * the compiled parts, inject authorization, send it under one deadline per attempt, follow its
 * redirects, retry when the spec allows, record it, run its extractors or its verifier, and feed
 * its custom metrics (extract-metrics.ts).
 *
 * Every exchange on the wire is a request of the reports (docs/reports.md, What is counted): each
 * attempt and each redirect hop is recorded with its own status, error kind, latency (its send to
 * its response's end), time to first byte and bytes, tagged `retry` (an attempt after the first)
 * and `redirect` (a hop), so the totals and status codes equal what the server saw. The logical
 * request — what the user asked for — keeps its own figures: http_req_total_duration, from its
 * first send to its final response with its retries' waits and hops in it, and
 * http_req_total_failed, its final outcome; the open model's intended-time latency is its too.
 * Its final response is the one extractors, checks and `metrics:` read.
 *
 * A request follows its redirects (RFC 9110 §15.4) up to the endpoint's `max_redirects`, as a
 * browser does: 301/302 turn a POST into a GET and 303 anything but HEAD, 307/308 keep method and
 * body; each hop goes only to the request's own origin, the target or `allowed_hosts`, drops the
 * Authorization header when it leaves the origin, and carries the cookie jar's cookies for its url.
 * An attempt's hops share its deadline.
 *
 * An endpoint's `reauth` (a status of its `on`, the first time): the attempt is recorded as a
 * retried one, the refresh endpoint is sent as a request of its own (another InFlight of the
 * user), and the request is built again from the variables it extracted and sent once more,
 * tagged `retry`; a second such status is the request's failure.
 *
 * A retry waits its backoff, or longer when the response asks for it (a 429's or 503's
 * Retry-After, the RateLimit fields: retry-after.ts), never less; a server asking for more than
 * `max_backoff` is not retried, and neither is a request once the run is stopping: its failed
 * attempt stands. Each wait is a sample of http_req_retry_wait.
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
 *   sending       the exchange's end (exchanged)       following; backing off; finishing
 *   following     the hop's end (exchanged)            following; backing off; finishing
 *   backing off   the backoff's end (backedOff)        authorizing again, then sending; standing
 *                 a hard stop (backoffWait)            standing (the failed attempt stands)
 *   refreshing    the refresh request's end (#refreshed)  authorizing again, filling, sending;
 *                                                      standing (the refresh failed)
 *   finishing     #finish                              done(ok)
 *   standing      #stand                               done(false)
 *
 * Recording a failed exchange also offers it to the capture (exchange-capture.ts: the sample
 * failures, the HTTP debug log); a successful one only when the log asks for every request.
 */
import type { RetryPlan } from '../../model/plan/plan.js';
import type { ReauthPlan } from '../../model/plan/endpoint-plan.js';
import { inStatusSet } from '../../model/plan/status-set.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import { NO_TOKEN, type AuthProvider, type Authorization } from '../auth/auth-provider.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { classifyError, classifyStatus } from '../failure/error-kind.js';
import { backoffMs, isRetryable } from '../failure/retry.js';
import { retryAfterMs } from '../failure/retry-after.js';
import type { RetryBudget } from '../failure/retry-budget.js';
import { BODY_PENDING, type CompiledRequest } from '../http/compiled-request.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import { fillHop, REDIRECT_STATUSES, redirectTarget } from '../http/redirect-hop.js';
import type { Recorder } from '../metrics/recorder.js';
import { REDIRECT_STEP, RETRY_STEP } from '../metrics/endpoint-figures.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import { setLongTimeout } from '../schedule/long-timer.js';
import { runExtractors } from '../vars/extract.js';
import { recordEndpointMetrics } from '../vars/extract-metrics.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import { ExchangeCapture, type CaptureDeps } from './exchange-capture.js';
import { InFlight } from './in-flight.js';
import { recordLlm } from './record-llm.js';
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
  /** Wall-clock epoch ms, for a Retry-After given as a date (default: the system's). */
  readonly wallMs?: () => number;
  /** The plan's endpoints, compiled: an endpoint's `reauth` sends one of them. */
  readonly requests?: readonly CompiledRequest[];
}

/** Sends the logical requests of a segment's virtual users. */
export class RequestPath {
  readonly #flights = new Map<VirtualUser, InFlight>();
  /** Each user's refresh request of a `reauth`, sent while its request waits. */
  readonly #refreshes = new Map<VirtualUser, InFlight>();
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
    const flight = this.#flightOf(this.#flights, vu);
    flight.done = done;
    flight.fail = fail;
    this.#send(flight, compiled, index, intendedUs, true);
  }

  /** The user's flight of `flights`, made at its first request. */
  #flightOf(flights: Map<VirtualUser, InFlight>, vu: VirtualUser): InFlight {
    let flight = flights.get(vu);
    if (flight === undefined) {
      flight = new InFlight(
        vu,
        this,
        (f) => this.#exchanged(f),
        (f) => this.#backedOff(f),
        (f) => this.#stand(f),
        (f, atUs, previousUs) => this.#streamPiece(f, atUs, previousUs),
        (f, gapUs) =>
          this.deps.recorder.recordTrend(FIGURE.llm_inter_token_latency, f.index, gapUs),
      );
      flights.set(vu, flight);
    }
    return flight;
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
  #send(
    flight: InFlight,
    compiled: CompiledRequest,
    index: number,
    intendedUs: number,
    reauthable: boolean,
  ): void {
    flight.compiled = compiled;
    flight.index = index;
    flight.requestIntendedUs = intendedUs;
    flight.attempt = 0;
    flight.reauth = reauthable ? compiled.endpoint.reauth : undefined;
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

  /**
   * The request filled and sent: its first attempt, or (`attempt` > 0) its attempt after a
   * reauth's refresh, built again from the variables; one that cannot be built then stands.
   */
  readonly #authorized = (flight: InFlight, authorization: Authorization): void => {
    const again = flight.attempt > 0;
    // The OAuth 2.0 provider gave up and the run is stopping: nothing is sent or counted.
    if (authorization === NO_TOKEN) {
      if (again) this.#stand(flight);
      else flight.done(false);
      return;
    }
    const { vu, compiled } = flight;
    flight.authorization = authorization;
    const cookies = this.deps.cookies ? vu.cookies : undefined;
    const filled = compiled!.fill(vu.options, vu.vars, vu.random, authorization, cookies);
    if (typeof filled === 'string') {
      const missing = filled === 'missing_variable' ? vu.vars : undefined;
      if (again) this.#stand(flight);
      else flight.done(this.#unsent(compiled!, filled, missing));
      return;
    }
    if (!again) this.deps.budget?.deposit();
    if (filled === BODY_PENDING) {
      // A multipart body with placeholders is encoded asynchronously, once per request.
      compiled!
        .finishBody(vu.options)
        .then((bytes) => this.guard(flight, (c) => this.#sendFilled(c, bytes)), flight.fail);
      return;
    }
    this.#sendFilled(flight, filled);
  };

  /** The first attempt of a request filled, or its attempt after a reauth's refresh. */
  #sendFilled(flight: InFlight, bytesOut: number): void {
    flight.bytesOut = bytesOut;
    if (flight.attempt > 0) {
      this.#retry(flight);
      return;
    }
    flight.firstUs = this.deps.now();
    this.#attempt(flight);
  }

  /** One attempt under its own deadline. */
  #attempt(flight: InFlight): void {
    const { vu, compiled } = flight;
    const endpoint = compiled!.endpoint;
    flight.attempt++;
    flight.hops = 0;
    flight.redirectKind = undefined;
    vu.redirectKind = undefined;
    flight.exchangeBytesOut = flight.bytesOut;
    flight.sendUs = this.deps.now();
    vu.connectUs = -1;
    vu.tlsUs = -1;
    vu.deadlineUs = flight.sendUs + endpoint.timeoutMs * 1000;
    vu.sent = vu.options;
    this.#startExchange(flight);
    vu.send(vu.options.origin, vu.options);
  }

  /** Readies the exchange for an attempt or a hop: a stream endpoint's with its listener. */
  #startExchange(flight: InFlight): void {
    const { vu, compiled } = flight;
    const { stream, llm } = compiled!.endpoint;
    vu.firstPieceUs = -1;
    vu.exchange.sendUs = flight.sendUs;
    if (llm !== undefined) flight.llm.reset(llm);
    vu.exchange.llm = llm === undefined ? undefined : flight.llm;
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

  /**
   * An attempt (or a hop) is over: follow its redirect (the hop recorded), retry it after a
   * backoff (the attempt recorded), or finish the request.
   */
  #exchanged(flight: InFlight): void {
    const { vu } = flight;
    const exchange = vu.exchange;
    flight.endUs = this.deps.now();
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
    vu.deadlineUs = 0;
    flight.kind =
      exchange.error !== undefined
        ? classifyError(exchange.error)
        : (exchange.failure ?? flight.redirectKind ?? classifyStatus(exchange.status));
    if (
      flight.reauth !== undefined &&
      exchange.error === undefined &&
      inStatusSet(flight.reauth.on, exchange.status)
    ) {
      this.#reauth(flight, flight.reauth);
      return;
    }
    const waitMs = flight.kind === undefined ? undefined : this.#retryWaitMs(flight, flight.kind);
    if (waitMs === undefined) {
      this.#finish(flight);
      return;
    }
    this.#recordExchange(flight, flight.kind, -1);
    flight.waitStartUs = flight.endUs;
    flight.backoff = setLongTimeout(flight.backedOff, waitMs);
    vu.session = flight.backoffWait;
  }

  /**
   * The wait before retrying a failed attempt: its backoff, or what the response asks for when
   * longer; undefined when it is not retried (not retryable, out of attempts or budget, the run
   * stopping, or a server asking for more than `max_backoff`).
   */
  #retryWaitMs(flight: InFlight, kind: ErrorKind): number | undefined {
    const retry = this.deps.retry;
    const status = flight.vu.exchange.status;
    if (retry === undefined || flight.attempt >= retry.maxAttempts || this.deps.stopping())
      return undefined;
    if (!isRetryable(kind, status)) return undefined;
    const wall = this.deps.wallMs?.() ?? Date.now();
    const asked =
      status === 429 || status === 503 ? retryAfterMs(flight.vu.exchange.headers, wall) : undefined;
    if (asked !== undefined && asked > retry.maxBackoffMs) return undefined;
    if (!(this.deps.budget?.tryWithdraw(flight.endUs) ?? true)) return undefined;
    const backoff = backoffMs(
      flight.attempt,
      retry.backoffMs,
      retry.maxBackoffMs,
      retry.jitter,
      flight.vu.random,
    );
    return Math.max(backoff, asked ?? 0);
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
    vu.redirectKind = flight.redirectKind;
    if (flight.redirectKind !== undefined) return false;
    const origin = sameOrigin ? vu.sent.origin : next.origin;
    const path = next.pathname + next.search;
    const cookie = this.deps.cookies ? vu.cookies.header(origin, path) : undefined;
    // This response (a 3xx) is a request of its own, recorded before its exchange is reused.
    this.#recordExchange(flight, undefined, -1);
    const bytesOut = fillHop(vu.hop, vu.sent, exchange.status, origin, path, sameOrigin, cookie);
    flight.hops++;
    flight.exchangeBytesOut = bytesOut;
    this.deps.recorder.recordRedirect();
    vu.sent = vu.hop;
    flight.sendUs = this.deps.now();
    vu.connectUs = -1;
    vu.tlsUs = -1;
    this.#startExchange(flight);
    vu.send(origin, vu.hop);
    return true;
  }

  /**
   * After a retry's backoff (its wait a sample of http_req_retry_wait): with auth, the current
   * Authorization value (the token may have been renewed during the backoff, and an expired one
   * must not be sent). When there is none, the failed attempt stands as the request's result.
   */
  #backedOff(flight: InFlight): void {
    this.deps.recorder.recordTrend(
      FIGURE.http_req_retry_wait,
      flight.index,
      this.deps.now() - flight.waitStartUs,
    );
    if (flight.authorization === undefined) {
      this.#retry(flight);
      return;
    }
    this.#authorize(flight, this.#reauthorized);
  }

  readonly #reauthorized = (flight: InFlight, value: Authorization): void => {
    if (typeof value !== 'string') {
      this.#stand(flight);
      return;
    }
    flight.compiled!.replaceAuthorization(flight.vu.options, value);
    this.#retry(flight);
  };

  /**
   * A status of `reauth.on`: the attempt is recorded as a retried one is, the refresh endpoint is
   * sent (its own request, which extracts the new credentials), then the request once more, built
   * again from the variables; if the refresh failed, the attempt stands.
   */
  #reauth(flight: InFlight, reauth: ReauthPlan): void {
    flight.reauth = undefined;
    this.#recordExchange(flight, flight.kind, -1);
    const refresh = this.deps.requests?.[reauth.run];
    if (refresh === undefined) {
      this.#stand(flight);
      return;
    }
    const nested = this.#flightOf(this.#refreshes, flight.vu);
    nested.done = (ok) => this.guard(flight, (f) => this.#refreshed(f, ok));
    nested.fail = flight.fail;
    this.#send(nested, refresh, reauth.run, NO_INTENDED_TIME, false);
  }

  #refreshed(flight: InFlight, ok: boolean): void {
    if (!ok) this.#stand(flight);
    else if (this.deps.auth === undefined) this.#authorized(flight, undefined);
    else this.#authorize(flight, this.#authorized);
  }

  #retry(flight: InFlight): void {
    this.deps.recorder.recordRetry();
    this.#attempt(flight);
  }

  /**
   * The final exchange's outcome is the request's: run the extractors of a success (a response
   * they cannot read fails it as `extract_error`, a value the variable store refuses as
   * `variable_limit`), or the endpoint's verifier (expected statuses, extractors, checks:
   * response-verifier.ts), then record it and the logical request's figures.
   */
  #finish(flight: InFlight): void {
    const { vu } = flight;
    const endpoint = flight.compiled!.endpoint;
    const exchange = vu.exchange;
    let kind = flight.kind;
    // undici refused the request itself (a header value it will not send): nothing left, so it
    // is not a request. A refused redirect hop is, since the hops before it were sent.
    if (kind === 'invalid_request' && flight.hops === 0 && flight.attempt === 1) {
      flight.done(this.#unsent(flight.compiled!, kind, undefined));
      return;
    }
    const verifier = flight.compiled!.verifier;
    if (verifier !== undefined) {
      const us = flight.endUs - flight.sendUs;
      kind = verifier.judge(kind, exchange, us, vu.vars, vu.random, this.deps.recorder);
    } else if (kind === undefined && endpoint.extract.length > 0)
      kind = runExtractors(endpoint.extract, exchange.body(), exchange.headers, vu.vars, vu.random);
    this.#recordExchange(flight, kind, flight.requestIntendedUs);
    if (endpoint.llm !== undefined)
      recordLlm(flight, endpoint.llm, kind === undefined, this.deps.recorder);
    if (endpoint.metrics.length > 0 && exchange.status > 0)
      recordEndpointMetrics(
        endpoint.metrics,
        exchange.body(),
        exchange.headers,
        exchange.status,
        this.deps.recorder,
        flight.endUs,
      );
    this.#recordLogical(flight, kind);
    flight.done(kind === undefined);
  }

  /** A failed attempt stands as the request's result (its backoff cut, no token for its retry). */
  #stand(flight: InFlight): void {
    const llm = flight.compiled!.endpoint.llm;
    if (llm !== undefined) recordLlm(flight, llm, false, this.deps.recorder);
    this.#recordLogical(flight, flight.kind);
    flight.done(false);
  }

  /** The logical request's own figures: its total duration and its final outcome. */
  #recordLogical(flight: InFlight, kind: ErrorKind | undefined): void {
    const recorder = this.deps.recorder;
    recorder.recordTrend(
      FIGURE.http_req_total_duration,
      flight.index,
      flight.endUs - flight.firstUs,
    );
    recorder.recordRate(FIGURE.http_req_total_failed, flight.index, kind !== undefined);
  }

  /**
   * Records the exchange just ended (an attempt, or a redirect's hop) as a request with `kind`,
   * tagged as a retry's or a hop's, with the logical request's intended time on its final one
   * (-1 on the others); offers it to the capture when it failed, or when every one is logged.
   */
  #recordExchange(flight: InFlight, kind: ErrorKind | undefined, intendedUs: number): void {
    const { vu } = flight;
    const exchange = vu.exchange;
    const step = (flight.attempt > 1 ? RETRY_STEP : 0) | (flight.hops > 0 ? REDIRECT_STEP : 0);
    const waitingUs = this.#waitingUs(flight);
    this.deps.recorder.recordRequest(
      flight.index,
      exchange.status,
      kind,
      flight.sendUs,
      flight.endUs,
      intendedUs,
      exchange.bytesIn,
      flight.exchangeBytesOut,
      waitingUs,
      step,
    );
    if (exchange.status > 0)
      this.deps.recorder.recordProtocol(flight.index, vu.protocolOf(vu.sent.origin));
    if (kind !== undefined || this.#captureAll) this.#capture?.capture(flight, kind, waitingUs);
  }

  /**
   * The exchange's time to first byte, less the connection it opened (as k6's waiting), which is
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

  /** A request not sent; `missing` holds the variables when one of them had no value. */
  #unsent(compiled: CompiledRequest, kind: ErrorKind, missing: VariableStore | undefined): false {
    this.deps.recorder.recordUnsent(kind, unsentCause(compiled.endpoint, missing));
    return false;
  }
}
