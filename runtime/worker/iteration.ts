/**
 * One iteration per permit (DESIGN.md §3): pick an endpoint or a flow by weight, take the next
 * feeder record, then for each request: build it from the compiled parts, inject authorization,
 * send it under one deadline, retry when the spec allows, record it, run its extractors.
 * A permit is one logical request: retries are counted apart and the latency recorded is the
 * final attempt's (service time), while the intended-time latency runs from the permit's
 * scheduled time to the final completion.
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
import type { Recorder } from '../metrics/recorder.js';
import { setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import { runExtractors } from '../vars/extract.js';
import type { Abortable, VirtualUser } from './virtual-user.js';
import { weightedPick } from './weighted-pick.js';

/** How a WebSocket session ended. */
export interface SessionOutcome {
  readonly ok: boolean;
  /** The handshake's HTTP status (101 when it was accepted), 0 when none came. */
  readonly status: number;
  /** The error kind when it failed. */
  readonly error: ErrorKind | undefined;
}

/** Runs a WebSocket endpoint's session. */
export type SessionRunner = (
  vu: VirtualUser,
  endpoint: number,
  intendedUs: number,
) => Promise<SessionOutcome>;

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

/** One virtual user's place in its iteration and in its request in flight. */
class Cursor {
  /** The iteration: endpoint indexes in order, the next one, the permit's intended time. */
  steps: readonly number[] = [];
  next = 0;
  intendedUs = NO_INTENDED_TIME;
  iteration: IterationCallbacks | undefined;
  /** The logical request in flight. */
  compiled: CompiledRequest | undefined;
  index = 0;
  requestIntendedUs = NO_INTENDED_TIME;
  authorization: string | undefined;
  bytesOut = 0;
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

  constructor(
    readonly vu: VirtualUser,
    runner: IterationRunner,
    onExchange: (cursor: Cursor) => void,
    onStep: (cursor: Cursor) => void,
    onBackoff: (cursor: Cursor) => void,
    onBackoffCut: (cursor: Cursor) => void,
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
  }

  #endBackoff(): void {
    this.backoff = undefined;
    if (this.vu.session === this.backoffWait) this.vu.session = undefined;
  }
}

/** Runs setup steps and iterations for the workers of one segment. */
export class IterationRunner {
  readonly #cursors = new Map<VirtualUser, Cursor>();
  /** A single endpoint's one-step list, by endpoint index. */
  readonly #single: readonly (readonly number[])[];
  /** Workers of the segment that got a feeder record before their setup. */
  #holders = 0;

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
    cursor.steps =
      item.kind === 'endpoint' ? this.#single[item.index]! : graph.flows[item.index]!.steps;
    cursor.next = 0;
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
      );
      this.#cursors.set(vu, cursor);
    }
    return cursor;
  }

  /** The iteration's next request, or its end. */
  #step(cursor: Cursor): void {
    const callbacks = cursor.iteration!;
    if (cursor.next === cursor.steps.length) {
      cursor.iteration = undefined;
      callbacks.ended();
      return;
    }
    const intendedUs = cursor.next === 0 ? cursor.intendedUs : NO_INTENDED_TIME;
    const index = cursor.steps[cursor.next++]!;
    this.#request(cursor, index, intendedUs, cursor.stepDone, callbacks.failed);
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
      done(this.#unsent(index, 'invalid_request'));
    } else {
      this.deps
        .ws(cursor.vu, index, intendedUs)
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
    const filled = compiled!.fill(vu.options, vu.vars, vu.random, authorization);
    if (typeof filled === 'string') {
      cursor.done(this.#unsent(cursor.index, filled));
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
    cursor.startUs = this.deps.now();
    vu.deadlineUs = cursor.startUs + endpoint.timeoutMs * 1000;
    vu.exchange.start(compiled!.keepBody, compiled!.keepHeaders, cursor.exchanged);
    vu.client(vu.options.origin).dispatch(vu.options, vu.exchange);
  }

  /** An attempt is over: retry it after a backoff, or record the request. */
  #exchanged(cursor: Cursor): void {
    const { vu } = cursor;
    cursor.endUs = this.deps.now();
    vu.deadlineUs = 0;
    const exchange = vu.exchange;
    cursor.kind =
      exchange.error !== undefined
        ? classifyError(exchange.error)
        : classifyStatus(exchange.status);
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
   * `variable_limit`), then record it.
   */
  #record(cursor: Cursor): void {
    const { vu } = cursor;
    const endpoint = cursor.compiled!.endpoint;
    const exchange = vu.exchange;
    let kind = cursor.kind;
    if (kind === undefined && endpoint.extract.length > 0)
      kind = runExtractors(endpoint.extract, exchange.body(), exchange.headers, vu.vars);
    this.deps.recorder.recordRequest(
      cursor.index,
      exchange.status,
      kind,
      cursor.startUs,
      cursor.endUs,
      cursor.requestIntendedUs,
      exchange.bytesIn,
      cursor.bytesOut,
    );
    cursor.done(kind === undefined);
  }

  #shouldRetry(kind: ErrorKind, status: number, attempt: number, nowUs: number): boolean {
    const retry = this.deps.retry;
    if (retry === undefined || attempt >= retry.maxAttempts || this.deps.stopping()) return false;
    if (!isRetryable(kind, status)) return false;
    return this.deps.budget?.tryWithdraw(nowUs) ?? true;
  }

  #unsent(index: number, kind: ErrorKind): false {
    this.deps.recorder.recordUnsent(index, kind, this.deps.now());
    return false;
  }
}
