/**
 * One iteration per permit (DESIGN.md §3): pick an endpoint or a flow by weight, take the next
 * feeder record, then for each request: build it from the compiled parts, inject authorization,
 * send it under one deadline, retry when the spec allows, record it, run its extractors.
 * A permit is one logical request: retries are counted apart and the latency recorded is the
 * final attempt's (service time), while the intended-time latency runs from the permit's
 * scheduled time to the final completion.
 *
 * A request follows its redirects (RFC 9110 §15.4) up to the endpoint's `max_redirects`, as a
 * browser does: 301/302 turn a POST into a GET and 303 anything but HEAD, 307/308 keep method and
 * body; each hop goes only to the request's own origin, the target or `allowed_hosts`, drops the
 * Authorization header when it leaves the origin, and carries the cookie jar's cookies for its url.
 * The hops are one logical request: one deadline, one latency from the first byte sent to the last
 * response's end, bytes summed; each hop is counted in `redirects`. After the last request of a
 * step, `think` pauses the worker as a user reading the page would.
 *
 * The path is written with callbacks, not async functions: each level of async function costs a
 * promise and a microtask per request, and four of them cost more than a tenth of the
 * throughput (docs/performance.md). Each virtual user's place (the iteration's steps, the request
 * in flight) lives in a Cursor reused for every request, with its callbacks bound once.
 */
import type { FeederPlan, RetryPlan } from '../../dsl/plan/plan.js';
import type { ScenarioGraph } from '../../dsl/plan/scenario-graph.js';
import { NO_TOKEN, type AuthProvider, type Authorization } from '../auth/auth-provider.js';
import { classifyError, classifyStatus, type ErrorKind } from '../failure/error-kind.js';
import { backoffMs, isRetryable } from '../failure/retry.js';
import type { RetryBudget } from '../failure/retry-budget.js';
import type { Random } from '../random.js';
import type { Feeder } from '../feeder/feeder.js';
import { BODY_PENDING, type CompiledRequest } from '../http/compiled-request.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import { fillHop, REDIRECT_STATUSES, redirectTarget } from '../http/redirect-hop.js';
import type { Recorder } from '../metrics/recorder.js';
import { setLongTimeout } from '../schedule/long-timer.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import { runExtractors } from '../vars/extract.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import type { VirtualUser } from './virtual-user.js';
import { Cursor } from './cursor.js';
import { weightedPick } from './weighted-pick.js';

/** How a WebSocket session ended. */
export interface SessionOutcome {
  readonly ok: boolean;
  /** The handshake's HTTP status (101 when it was accepted), 0 when none came. */
  readonly status: number;
  /** The error kind when it failed. */
  readonly error: ErrorKind | undefined;
}

/** Runs WebSocket endpoints' sessions. */
export interface SessionRunner {
  /** One session of a virtual user. */
  run(vu: VirtualUser, endpoint: number, intendedUs: number): Promise<SessionOutcome>;
  /** The run is ending: pauses and listens end now, and sessions close after the step under way. */
  stop(): void;
}

/** What iterations need from their segment. */
export interface IterationDeps {
  readonly graph: ScenarioGraph;
  readonly requests: readonly CompiledRequest[];
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly auth: AuthProvider | undefined;
  readonly feeder: Feeder | undefined;
  /** Which record a worker's requests see (the Plan's `feeder.per`). */
  readonly feederPer: FeederPlan['per'];
  /** Called when a non-cycling feeder runs out: the segment stops dispatch. */
  readonly onFeederExhausted: () => void;
  readonly retry: RetryPlan | undefined;
  readonly budget: RetryBudget | undefined;
  /** True once the run is stopping: no new retries. */
  readonly stopping: () => boolean;
  readonly ws: SessionRunner | undefined;
  /** Each virtual user keeps a cookie jar. */
  readonly cookies: boolean;
  /** Where redirects may lead besides the request's own origin. */
  readonly hosts: AllowedHosts;
  /** Draws the weighted picks in permit order, so a seed reproduces them whatever the timing. */
  readonly picks: Random;
}

/** Called when an iteration is over, and when one failed on a bug (it then ends the worker). */
export interface IterationCallbacks {
  readonly ended: () => void;
  readonly failed: (error: unknown) => void;
}

/** Called when a logical request is over: true when it succeeded. */
export type RequestDone = (ok: boolean) => void;

/** Runs setup steps and iterations for the workers of one segment. */
export class IterationRunner {
  readonly #cursors = new Map<VirtualUser, Cursor>();
  /** A single endpoint's one-step list, by endpoint index. */
  readonly #single: readonly (readonly number[])[];
  /** Workers of the segment that got a feeder record before their setup. */
  #holders = 0;
  /** Workers in a think pause: a stop ends their iterations at once. */
  readonly #thinking = new Set<Cursor>();
  #ending = false;

  constructor(private readonly deps: IterationDeps) {
    this.#single = deps.requests.map((_, i) => [i]);
  }

  /**
   * The worker's feeder record, then its setup endpoints, once, in order; false when the worker
   * ends instead, for want of a record (a non-cycling feeder used up). With `per: worker` a worker
   * keeps its record for life, and those left without one end; the segment stops only when none
   * got one, as a used-up feeder stops it. With `per: iteration`, the setup endpoints get a record
   * of their own (a login's username) and a used-up feeder stops the segment, as in run().
   */
  async setup(vu: VirtualUser): Promise<boolean> {
    const { feeder, graph } = this.deps;
    if (feeder !== undefined && (this.deps.feederPer === 'worker' || graph.setup.length > 0)) {
      const record = feeder.next();
      if (record === undefined) {
        if (this.deps.feederPer !== 'worker' || this.#holders === 0) this.deps.onFeederExhausted();
        return false;
      }
      this.#holders++;
      vu.vars.merge(record);
    }
    for (const index of graph.setup) await this.request(vu, index, NO_INTENDED_TIME);
    return true;
  }

  /**
   * One permit; `callbacks.ended` is called when its iteration is over, which may be before this
   * returns (nothing was sent).
   */
  run(vu: VirtualUser, intendedUs: number, callbacks: IterationCallbacks): void {
    const { graph, recorder, feeder } = this.deps;
    recorder.recordIteration();
    vu.iteration++;
    if (feeder !== undefined && this.deps.feederPer !== 'worker') {
      const record = feeder.next();
      if (record === undefined) {
        this.deps.onFeederExhausted();
        callbacks.ended();
        return;
      }
      vu.vars.merge(record);
    }
    const item =
      graph.picks.items.length === 1
        ? graph.picks.items[0]!
        : weightedPick(graph.picks, this.deps.picks);
    const cursor = this.#cursor(vu);
    const flow = item.kind === 'flow' ? graph.flows[item.index]! : undefined;
    cursor.steps = flow?.steps ?? this.#single[item.index]!;
    cursor.flowThink = flow?.think;
    cursor.next = 0;
    cursor.rested = false;
    cursor.intendedUs = intendedUs;
    cursor.iteration = callbacks;
    this.#step(cursor);
  }

  /** One logical request (with its retries); true when it succeeded. */
  request(vu: VirtualUser, index: number, intendedUs: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#request(this.#cursor(vu), index, intendedUs, resolve, reject);
    });
  }

  /**
   * Sends an HTTP request (auth injection, one deadline per attempt, retries) and records it
   * under endpoint `index`; `done(ok)` is called when it is over, which may be before this
   * returns (nothing was sent), and `fail` on a throw along the way (a bug). The exchange keeps
   * the response for the caller (a TypeScript scenario's response object).
   */
  send(
    vu: VirtualUser,
    compiled: CompiledRequest,
    index: number,
    intendedUs: number,
    done: RequestDone,
    fail: (error: unknown) => void,
  ): void {
    const cursor = this.#cursor(vu);
    cursor.done = done;
    cursor.fail = fail;
    this.#send(cursor, compiled, index, intendedUs);
  }

  /**
   * The run is ending: workers in a think pause end their iterations now, and none starts one;
   * WebSocket sessions end their pauses and listens and close.
   */
  stopThinking(): void {
    this.#ending = true;
    for (const cursor of this.#thinking) cursor.thinkWait.abort(new Error('run stopping'));
    this.deps.ws?.stop();
  }

  /** Runs a callback of the request path; a throw (a bug) fails the request's caller. */
  guard(cursor: Cursor, step: (cursor: Cursor) => void): void {
    try {
      step(cursor);
    } catch (error) {
      cursor.fail(error);
    }
  }

  #cursor(vu: VirtualUser): Cursor {
    let cursor = this.#cursors.get(vu);
    if (cursor === undefined) {
      cursor = new Cursor(
        vu,
        this,
        (c) => this.#exchanged(c),
        (c) => this.#step(c),
        (c) => this.#backedOff(c),
        (c) => this.#record(c),
        (c) => this.#endIteration(c),
      );
      this.#cursors.set(vu, cursor);
    }
    return cursor;
  }

  /** The iteration's next request, or its end; first the think pause after the last one. */
  #step(cursor: Cursor): void {
    this.#thinking.delete(cursor);
    if (cursor.next > 0 && !cursor.rested) {
      const ms = this.#thinkMs(cursor);
      if (ms > 0) {
        cursor.rested = true;
        cursor.thinking = setLongTimeout(cursor.thought, ms);
        cursor.vu.session = cursor.thinkWait;
        this.#thinking.add(cursor);
        return;
      }
    }
    cursor.rested = false;
    const callbacks = cursor.iteration!;
    if (cursor.next === cursor.steps.length) {
      this.#endIteration(cursor);
      return;
    }
    const intendedUs = cursor.next === 0 ? cursor.intendedUs : NO_INTENDED_TIME;
    const index = cursor.steps[cursor.next++]!;
    this.#request(cursor, index, intendedUs, cursor.stepDone, callbacks.failed);
  }

  /** The pause after the step just done: its endpoint's think, else the flow's between steps. */
  #thinkMs(cursor: Cursor): number {
    const endpoint = this.deps.graph.endpoints[cursor.steps[cursor.next - 1]!]!;
    const think =
      endpoint.think ?? (cursor.next < cursor.steps.length ? cursor.flowThink : undefined);
    if (think === undefined || this.#ending) return 0;
    return think.minMs + cursor.vu.random.next() * (think.maxMs - think.minMs);
  }

  #endIteration(cursor: Cursor): void {
    this.#thinking.delete(cursor);
    const callbacks = cursor.iteration!;
    cursor.iteration = undefined;
    callbacks.ended();
  }

  #request(
    cursor: Cursor,
    index: number,
    intendedUs: number,
    done: RequestDone,
    fail: (error: unknown) => void,
  ): void {
    const compiled = this.deps.requests[index]!;
    cursor.vu.vars.begin();
    cursor.done = done;
    cursor.fail = fail;
    if (compiled.endpoint.protocol !== 'ws') {
      this.#send(cursor, compiled, index, intendedUs);
    } else if (this.deps.ws === undefined) {
      done(this.#unsent(compiled, 'invalid_request', undefined));
    } else {
      this.deps.ws
        .run(cursor.vu, index, intendedUs)
        .then((outcome) => this.guard(cursor, (c) => c.done(outcome.ok)), fail);
    }
  }

  /** Authorization first: the OAuth 2.0 provider may have to wait for a token. */
  #send(cursor: Cursor, compiled: CompiledRequest, index: number, intendedUs: number): void {
    cursor.compiled = compiled;
    cursor.index = index;
    cursor.requestIntendedUs = intendedUs;
    cursor.attempt = 0;
    if (this.deps.auth === undefined) this.#authorized(cursor, undefined);
    else this.#authorize(cursor, this.#authorized);
  }

  /**
   * The auth provider's value for the cursor's user, passed to `next` at once, or once the
   * provider has it (the OAuth 2.0 provider may have to wait for a token).
   */
  #authorize(cursor: Cursor, next: (cursor: Cursor, value: Authorization) => void): void {
    const value = this.deps.auth!.authorization(cursor.vu.vars, cursor.vu.random);
    if (typeof value !== 'object') next(cursor, value);
    else value.then((resolved) => this.guard(cursor, (c) => next(c, resolved)), cursor.fail);
  }

  readonly #authorized = (cursor: Cursor, authorization: Authorization): void => {
    // The OAuth 2.0 provider gave up and the run is stopping: nothing is sent or counted.
    if (authorization === NO_TOKEN) {
      cursor.done(false);
      return;
    }
    const { vu, compiled } = cursor;
    cursor.authorization = authorization;
    const cookies = this.deps.cookies ? vu.cookies : undefined;
    const filled = compiled!.fill(vu.options, vu.vars, vu.random, authorization, cookies);
    if (typeof filled === 'string') {
      const missing = filled === 'missing_variable' ? vu.vars : undefined;
      cursor.done(this.#unsent(compiled!, filled, missing));
      return;
    }
    this.deps.budget?.deposit();
    if (filled === BODY_PENDING) {
      // A multipart body with placeholders is encoded asynchronously, once per request.
      compiled!
        .finishBody(vu.options)
        .then((bytes) => this.guard(cursor, (c) => this.#sendEncoded(c, bytes)), cursor.fail);
      return;
    }
    cursor.bytesOut = filled;
    this.#attempt(cursor);
  };

  /** The first attempt of a request whose body was encoded after fill(). */
  #sendEncoded(cursor: Cursor, bytesOut: number): void {
    cursor.bytesOut = bytesOut;
    this.#attempt(cursor);
  }

  /** One attempt under its own deadline. */
  #attempt(cursor: Cursor): void {
    const { vu, compiled } = cursor;
    const endpoint = compiled!.endpoint;
    cursor.attempt++;
    cursor.hops = 0;
    cursor.hopBytesIn = 0;
    cursor.hopBytesOut = 0;
    cursor.redirectKind = undefined;
    cursor.startUs = this.deps.now();
    vu.deadlineUs = cursor.startUs + endpoint.timeoutMs * 1000;
    vu.sent = vu.options;
    vu.exchange.start(compiled!.keepBody, cursor.exchanged);
    vu.client(vu.options.origin).dispatch(vu.options, vu.exchange);
  }

  /** An attempt (or a hop) is over: follow its redirect, retry it after a backoff, or record it. */
  #exchanged(cursor: Cursor): void {
    const { vu } = cursor;
    const exchange = vu.exchange;
    if (exchange.error === undefined) {
      if (exchange.decodedBytes > 0) this.deps.recorder.recordDecoded(exchange.decodedBytes);
      if (this.deps.cookies && exchange.setCookies.length > 0)
        vu.cookies.storeFrom(vu.url(), exchange.headers!, exchange.setCookies);
      if (
        exchange.location >= 0 &&
        REDIRECT_STATUSES.has(exchange.status) &&
        this.#redirect(cursor)
      )
        return;
    }
    cursor.endUs = this.deps.now();
    vu.deadlineUs = 0;
    cursor.kind =
      exchange.error !== undefined
        ? classifyError(exchange.error)
        : (exchange.failure ?? cursor.redirectKind ?? classifyStatus(exchange.status));
    if (
      cursor.kind !== undefined &&
      this.#shouldRetry(cursor.kind, exchange.status, cursor.attempt, cursor.endUs)
    ) {
      const retry = this.deps.retry!;
      const waitMs = backoffMs(
        cursor.attempt,
        retry.backoffMs,
        retry.maxBackoffMs,
        retry.jitter,
        vu.random,
      );
      cursor.backoff = setLongTimeout(cursor.backedOff, waitMs);
      vu.session = cursor.backoffWait;
      return;
    }
    this.#record(cursor);
  }

  /**
   * Sends the next hop of a redirect; false when the response stands as the answer (no hops
   * allowed, a Location that is not an http(s) url) or fails (`redirectKind`: too many hops, a
   * host not allowed).
   */
  #redirect(cursor: Cursor): boolean {
    const { vu } = cursor;
    const exchange = vu.exchange;
    const endpoint = cursor.compiled!.endpoint;
    if (endpoint.maxRedirects === 0) return false;
    const base = new URL(vu.url());
    const next = redirectTarget(exchange.headers![exchange.location]!.toString('utf8'), base);
    if (next === undefined) return false;
    const sameOrigin = next.origin === base.origin;
    if (cursor.hops >= endpoint.maxRedirects) cursor.redirectKind = 'too_many_redirects';
    else if (!sameOrigin && !this.deps.hosts.allows(next)) cursor.redirectKind = 'url_not_allowed';
    if (cursor.redirectKind !== undefined) return false;
    const origin = sameOrigin ? vu.sent.origin : next.origin;
    const path = next.pathname + next.search;
    const cookie = this.deps.cookies ? vu.cookies.header(origin, path) : undefined;
    const bytesOut = fillHop(vu.hop, vu.sent, exchange.status, origin, path, sameOrigin, cookie);
    cursor.hops++;
    cursor.hopBytesIn += exchange.bytesIn;
    cursor.hopBytesOut += bytesOut;
    this.deps.recorder.recordRedirect();
    vu.sent = vu.hop;
    exchange.start(cursor.compiled!.keepBody, cursor.exchanged);
    vu.client(origin).dispatch(vu.hop, exchange);
    return true;
  }

  /**
   * After a retry's backoff: with auth, the current Authorization value (the token may have been
   * renewed during the backoff, and an expired one must not be sent). When there is none, the
   * failed attempt stands as the request's result.
   */
  #backedOff(cursor: Cursor): void {
    if (cursor.authorization === undefined) {
      this.#retry(cursor);
      return;
    }
    this.#authorize(cursor, this.#reauthorized);
  }

  readonly #reauthorized = (cursor: Cursor, value: Authorization): void => {
    if (typeof value !== 'string') {
      this.#record(cursor);
      return;
    }
    cursor.compiled!.replaceAuthorization(cursor.vu.options, value);
    this.#retry(cursor);
  };

  #retry(cursor: Cursor): void {
    this.deps.recorder.recordRetry();
    this.#attempt(cursor);
  }

  /**
   * The final attempt's outcome is the request's: run the extractors of a success (a response
   * they cannot read fails it as `extract_error`, a value the variable store refuses as
   * `variable_limit`), or the endpoint's verifier (expected statuses, extractors, checks:
   * response-verifier.ts), then record it.
   */
  #record(cursor: Cursor): void {
    const { vu } = cursor;
    const endpoint = cursor.compiled!.endpoint;
    const exchange = vu.exchange;
    let kind = cursor.kind;
    // undici refused the request itself (a header value it will not send): nothing left, so it
    // is not a request. A refused redirect hop is, since the hops before it were sent.
    if (kind === 'invalid_request' && cursor.hops === 0) {
      cursor.done(this.#unsent(cursor.compiled!, kind, undefined));
      return;
    }
    const verifier = cursor.compiled!.verifier;
    if (verifier !== undefined) {
      const us = cursor.endUs - cursor.startUs;
      kind = verifier.judge(kind, exchange, us, vu.vars, this.deps.recorder);
    } else if (kind === undefined && endpoint.extract.length > 0)
      kind = runExtractors(endpoint.extract, exchange.body(), exchange.headers, vu.vars);
    this.deps.recorder.recordRequest(
      cursor.index,
      exchange.status,
      kind,
      cursor.startUs,
      cursor.endUs,
      cursor.requestIntendedUs,
      cursor.hopBytesIn + exchange.bytesIn,
      cursor.bytesOut + cursor.hopBytesOut,
    );
    cursor.done(kind === undefined);
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
