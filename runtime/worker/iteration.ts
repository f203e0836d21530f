/**
 * One iteration per permit (DESIGN.md §3): pick an endpoint or a flow by weight, take the next
 * feeder record, then for each request: build it from the compiled parts, inject authorization,
 * send it under one deadline, retry when the spec allows, record it, run its extractors.
 * A permit is one logical request: retries are counted apart and the latency recorded is the
 * final attempt's (service time), while the intended-time latency runs from the permit's
 * scheduled time to the final completion.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RetryPlan } from '../../dsl/plan/plan.js';
import type { ScenarioGraph } from '../../dsl/plan/scenario-graph.js';
import { NO_TOKEN, type AuthProvider } from '../auth/auth-provider.js';
import { classifyError, classifyStatus, type ErrorKind } from '../failure/error-kind.js';
import { backoffMs, isRetryable } from '../failure/retry.js';
import type { RetryBudget } from '../failure/retry-budget.js';
import type { Random } from '../random.js';
import type { Feeder } from '../feeder/feeder.js';
import type { CompiledRequest } from '../http/compiled-request.js';
import type { Recorder } from '../metrics/recorder.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import { runExtractors } from '../vars/extract.js';
import type { VirtualUser } from './virtual-user.js';
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

/** Runs setup steps and iterations for the workers of one segment. */
export class IterationRunner {
  constructor(private readonly deps: IterationDeps) {}

  /** The setup endpoints, once per worker, in order. */
  async setup(vu: VirtualUser): Promise<void> {
    for (const index of this.deps.graph.setup) await this.request(vu, index, NO_INTENDED_TIME);
  }

  /** One permit. */
  async run(vu: VirtualUser, intendedUs: number): Promise<void> {
    const { graph, recorder, feeder } = this.deps;
    recorder.recordIteration();
    vu.iteration++;
    if (feeder !== undefined) {
      const record = feeder.next();
      if (record === undefined) {
        this.deps.onFeederExhausted();
        return;
      }
      vu.vars.merge(record);
    }
    const item =
      graph.picks.items.length === 1
        ? graph.picks.items[0]!
        : weightedPick(graph.picks, this.deps.picks);
    if (item.kind === 'endpoint') {
      await this.request(vu, item.index, intendedUs);
      return;
    }
    const steps = graph.flows[item.index]!.steps;
    for (let i = 0; i < steps.length; i++)
      await this.request(vu, steps[i]!, i === 0 ? intendedUs : NO_INTENDED_TIME);
  }

  /** One logical request (with its retries); true when it succeeded. */
  async request(vu: VirtualUser, index: number, intendedUs: number): Promise<boolean> {
    const compiled = this.deps.requests[index]!;
    vu.vars.begin();
    if (compiled.endpoint.protocol === 'ws')
      return this.deps.ws === undefined
        ? this.#unsent(index, 'invalid_request')
        : (await this.deps.ws(vu, index, intendedUs)).ok;
    return this.send(vu, compiled, index, intendedUs);
  }

  /**
   * Sends an HTTP request (auth injection, one deadline per attempt, retries) and records it
   * under endpoint `index`; true when it succeeded. The exchange keeps the response for the
   * caller (extractors here, a TypeScript scenario's response object).
   */
  async send(
    vu: VirtualUser,
    compiled: CompiledRequest,
    index: number,
    intendedUs: number,
  ): Promise<boolean> {
    const { recorder, now } = this.deps;
    const endpoint = compiled.endpoint;
    let authorization: string | undefined;
    if (this.deps.auth !== undefined) {
      const value = this.deps.auth.authorization(vu.vars, vu.random);
      const resolved = typeof value === 'object' ? await value : value;
      // The OAuth 2.0 provider gave up and the run is stopping: nothing is sent or counted.
      if (resolved === NO_TOKEN) return false;
      authorization = resolved;
    }
    const bytesOut = compiled.fill(vu.options, vu.vars, vu.random, authorization);
    if (bytesOut < 0) return this.#unsent(index, 'missing_variable');
    this.deps.budget?.deposit();
    for (let attempt = 1; ; attempt++) {
      const start = now();
      vu.deadlineUs = start + endpoint.timeoutMs * 1000;
      const done = vu.exchange.start(compiled.keepBody, compiled.keepHeaders);
      vu.client(endpoint.origin).dispatch(vu.options, vu.exchange);
      await done;
      const end = now();
      vu.deadlineUs = 0;
      const exchange = vu.exchange;
      const kind =
        exchange.error !== undefined
          ? classifyError(exchange.error)
          : classifyStatus(exchange.status);
      if (kind !== undefined && this.#shouldRetry(kind, exchange.status, attempt, end)) {
        await sleep(
          backoffMs(
            attempt,
            this.deps.retry!.backoffMs,
            this.deps.retry!.maxBackoffMs,
            this.deps.retry!.jitter,
            vu.random,
          ),
        );
        if (authorization === undefined || (await this.#reauthorize(vu, compiled))) {
          recorder.recordRetry();
          continue;
        }
      }
      recorder.recordRequest(
        index,
        exchange.status,
        kind,
        start,
        end,
        intendedUs,
        exchange.bytesIn,
        bytesOut,
      );
      if (kind === undefined && endpoint.extract.length > 0) {
        runExtractors(endpoint.extract, exchange.body(), exchange.headers, vu.vars);
      }
      return kind === undefined;
    }
  }

  /**
   * Before a retry: the current Authorization value (the token may have been renewed during the
   * backoff, and an expired one must not be sent); false when there is none (the failed attempt
   * then stands as the request's result).
   */
  async #reauthorize(vu: VirtualUser, compiled: CompiledRequest): Promise<boolean> {
    const value = this.deps.auth!.authorization(vu.vars, vu.random);
    const resolved = typeof value === 'object' ? await value : value;
    if (typeof resolved !== 'string') return false;
    compiled.replaceAuthorization(vu.options, resolved);
    return true;
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
