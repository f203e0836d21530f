/**
 * One iteration per permit (DESIGN.md §3): pick an endpoint or a flow by weight, take the next
 * feeder record, then walk its steps: each step's request goes through the request path
 * (request-path.ts: build, authorize, send under one deadline, follow redirects, retry, record,
 * extract), or, for a ws:// endpoint, through the WebSocket session runner (for a grpc:// one,
 * the gRPC call runner behind the same seam). After the request of
 * a step, `think` pauses the worker as a user reading the page would. An iteration's duration
 * (iteration_duration) runs from its permit taken to its last step and think done, or to a stop
 * cutting its pause.
 *
 * Written with callbacks, as the request path is (docs/performance.md). A virtual user's place
 * lives in a Cursor reused for every iteration, with its callbacks bound once. Its states:
 *
 *   state      left by                                   to
 *   stepping   the step's request or session ends        thinking (a think pause); stepping; ended
 *   thinking   the pause's end (thought)                 stepping
 *              the run's end (thinkWait, stopThinking)   ended
 *   ended      callbacks.ended()                         (the worker takes its next permit)
 */
import type { FeederPlan } from '../../model/plan/plan.js';
import type { ScenarioGraph } from '../../model/plan/scenario-graph.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { Random } from '../../model/random.js';
import type { Feeder } from '../feeder/feeder.js';
import type { CompiledRequest } from '../http/compiled-request.js';
import { RUN_ONLY, type Recorder } from '../metrics/recorder.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import { setLongTimeout } from '../schedule/long-timer.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VirtualUser } from '../user/virtual-user.js';
import type { SessionRunner } from '../ws/session-runner.js';
import { Cursor } from './cursor.js';
import { WALK_END } from './flow-walk.js';
import type { RequestDone, RequestPath } from './request-path.js';
import { weightedPick } from './weighted-pick.js';

/** What iterations need from their segment. */
export interface IterationDeps {
  readonly graph: ScenarioGraph;
  readonly requests: readonly CompiledRequest[];
  readonly recorder: Recorder;
  /** Where each step's HTTP request goes. */
  readonly path: RequestPath;
  readonly feeder: Feeder | undefined;
  /** Which record a worker's requests see (the Plan's `feeder.per`). */
  readonly feederPer: FeederPlan['per'];
  /** Called when a non-cycling feeder runs out: the segment stops dispatch. */
  readonly onFeederExhausted: () => void;
  readonly ws: SessionRunner | undefined;
  /** Draws the weighted picks in permit order, so a seed reproduces them whatever the timing. */
  readonly picks: Random;
  /** µs since dispatch start. */
  readonly now: () => number;
}

/** Called when an iteration is over, and when one failed on a bug (it then ends the worker). */
export interface IterationCallbacks {
  readonly ended: () => void;
  readonly failed: (error: unknown) => void;
}

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
   * ends instead, for want of a record (a non-cycling feeder used up) or because a setup endpoint
   * failed (as a throwing setup() stops k6's test: its login has no session to go on with). With `per: worker` a worker
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
    for (const index of graph.setup) {
      if (await this.request(vu, index, NO_INTENDED_TIME)) continue;
      this.deps.recorder.recordCount(FIGURE.vus_stopped, RUN_ONLY);
      return false;
    }
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
    cursor.walk.start(flow?.steps ?? this.#single[item.index]!);
    cursor.flowThink = flow?.think;
    cursor.last = -1;
    cursor.responded = false;
    cursor.rested = false;
    cursor.intendedUs = intendedUs;
    cursor.startUs = this.deps.now();
    cursor.iteration = callbacks;
    cursor.upcoming = cursor.walk.next(cursor);
    this.#step(cursor);
  }

  /** One logical request (with its retries); true when it succeeded. */
  request(vu: VirtualUser, index: number, intendedUs: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#request(this.#cursor(vu), index, intendedUs, resolve, reject);
    });
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

  /** Runs a callback of the iteration; a throw (a bug) fails the iteration. */
  readonly #guard = (cursor: Cursor, step: (cursor: Cursor) => void): void => {
    try {
      step(cursor);
    } catch (error) {
      cursor.iteration?.failed(error);
    }
  };

  #cursor(vu: VirtualUser): Cursor {
    let cursor = this.#cursors.get(vu);
    if (cursor === undefined) {
      cursor = new Cursor(
        vu,
        this.#guard,
        (c) => this.#step(c),
        (c) => this.#endIteration(c),
      );
      this.#cursors.set(vu, cursor);
    }
    return cursor;
  }

  /**
   * The iteration's next request, or its end; first, after a request, the walk's next step (its
   * conditions read that request's response) and the think pause.
   */
  #step(cursor: Cursor): void {
    this.#thinking.delete(cursor);
    if (cursor.last >= 0 && !cursor.rested) {
      cursor.upcoming = cursor.walk.next(cursor);
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
    if (cursor.upcoming === WALK_END) {
      this.#endIteration(cursor);
      return;
    }
    const intendedUs = cursor.last < 0 ? cursor.intendedUs : NO_INTENDED_TIME;
    cursor.last = cursor.upcoming;
    this.#request(cursor, cursor.last, intendedUs, cursor.stepDone, callbacks.failed);
  }

  /** The pause after the step just done: its endpoint's think, else the flow's between steps. */
  #thinkMs(cursor: Cursor): number {
    const endpoint = this.deps.graph.endpoints[cursor.last]!;
    const think = endpoint.think ?? (cursor.upcoming !== WALK_END ? cursor.flowThink : undefined);
    if (think === undefined || this.#ending) return 0;
    return think.minMs + cursor.vu.random.next() * (think.maxMs - think.minMs);
  }

  #endIteration(cursor: Cursor): void {
    this.#thinking.delete(cursor);
    const callbacks = cursor.iteration!;
    cursor.iteration = undefined;
    this.deps.recorder.recordTrend(
      FIGURE.iteration_duration,
      RUN_ONLY,
      this.deps.now() - cursor.startUs,
    );
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
    const vu = cursor.vu;
    vu.vars.begin();
    const http = compiled.endpoint.protocol === 'http';
    cursor.sending(http);
    if (http) {
      this.deps.path.send(vu, compiled, index, intendedUs, done, fail);
    } else if (this.deps.ws === undefined) {
      done(this.#unsent(compiled, 'invalid_request'));
    } else {
      this.deps.ws.run(vu, index, intendedUs).then((outcome) => {
        try {
          done(outcome.ok);
        } catch (error) {
          fail(error);
        }
      }, fail);
    }
  }

  /** A request not sent (a ws:// or grpc:// endpoint in a segment without the session runner). */
  #unsent(compiled: CompiledRequest, kind: ErrorKind): false {
    this.deps.recorder.recordUnsent(kind, unsentCause(compiled.endpoint, undefined));
    return false;
  }
}
