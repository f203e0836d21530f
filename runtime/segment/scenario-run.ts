/**
 * One scenario's share of a segment, assembled: its metrics shard, its request path and iteration
 * runner (its pick table), its WebSocket session runner, its executor and the workers it starts.
 * The segment's services (auth, feeder, retry budget, allowed hosts) are shared by its scenarios.
 * When the scenario's time is up it ends its think pauses and WebSocket pauses, and after its
 * graceful stop (plus GRACE_MARGIN_MS, so that a request's own deadline fires first and counts as
 * `timeout`) it cuts what is still under way, as a hard stop does.
 */
import type { Plan } from '../../model/plan/plan.js';
import type { ScenarioPlan } from '../../model/plan/scenario-plan.js';
import type { AuthProvider } from '../auth/auth-provider.js';
import { createExecutor, type Executor } from '../executor/executor.js';
import type { RetryBudget } from '../failure/retry-budget.js';
import type { Feeder } from '../feeder/feeder.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import { CAPTURED_BODY_BYTES } from '../http/body-capture.js';
import { compileRequests } from '../http/compiled-request.js';
import type { HttpDebugTap } from '../debug/http-debug-tap.js';
import { HardStopError } from '../../model/errors/barrage-error.js';
import { Recorder } from '../metrics/recorder.js';
import { deriveSeed, seededRandom } from '../../model/random.js';
import { setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import type { PermitSource } from '../schedule/permit-source.js';
import { IterationRunner } from '../worker/iteration.js';
import type { SessionRunner } from '../ws/session-runner.js';
import { RequestPath } from '../worker/request-path.js';
import { clientOptionsOf, VirtualUser, type ClientOptions } from '../user/virtual-user.js';
import { work, type Iterations } from '../worker/worker-loop.js';
import type { ScenarioShare } from '../split/segment-spec.js';
import { GRACE_MARGIN_MS } from '../../model/plan/scenario-plan.js';

/** What a scenario's share needs from its segment. */
export interface ScenarioRunDeps {
  readonly plan: Plan;
  readonly share: ScenarioShare;
  readonly thread: number;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly startedAt: number;
  readonly auth: AuthProvider | undefined;
  readonly feeder: Feeder | undefined;
  readonly budget: RetryBudget | undefined;
  readonly hosts: AllowedHosts;
  readonly stopping: () => boolean;
  readonly sessions: (recorder: Recorder) => SessionRunner | undefined;
  readonly onFeederExhausted: () => void;
  /** Every worker of the segment (deadline sweep, live state): started ones are added. */
  readonly users: VirtualUser[];
  /** The scenario's time is up (the segment's grace for the run starts when all are). */
  readonly timeUp: () => void;
  /** Its grace is over: what it has under way is cut (a TypeScript scenario's sandbox too). */
  readonly graceOver: (run: ScenarioRun) => void;
  /** The segment's side of the HTTP debug log; undefined when it is off. */
  readonly httpDebug: HttpDebugTap | undefined;
  /** Its shard (scenarioRecorder), made first: a TypeScript scenario's runner records into it. */
  readonly recorder: Recorder;
  /** A TypeScript scenario's iterations for its lane; absent: the YAML runner's. */
  readonly scripted?: (lane: ScriptedLane) => Iterations;
}

/** What a TypeScript scenario's iterations of one scenario share: its path, shard and function. */
export interface ScriptedLane {
  readonly path: RequestPath;
  readonly recorder: Recorder;
  /** The exported function its iterations call ('' for the default export). */
  readonly exec: string;
  /** The scenario's name. */
  readonly scenario: string;
  /**
   * The next iteration's number in the scenario across the run: this share's n-th is
   * rankFirst + n·rankStride, so that the segments' numbers never meet (split-plan.ts).
   */
  readonly nextInTest: () => number;
}

/** A scenario share's shard. */
export function scenarioRecorder(plan: Plan, share: ScenarioShare, startedAt: number): Recorder {
  return new Recorder({
    endpointCount: plan.graph.endpoints.length,
    segment: plan.segment,
    startedAt,
    openModel: plan.scenarios[share.scenario]!.executor.kind === 'arrival-rate',
  });
}

/** One scenario's share of a segment. */
export class ScenarioRun {
  readonly scenario: ScenarioPlan;
  readonly recorder: Recorder;
  readonly path: RequestPath;
  readonly runner: IterationRunner;
  /** What its workers run: the YAML iterations, or a TypeScript scenario's. */
  readonly #iterations: Iterations;
  readonly #deps: ScenarioRunDeps;
  readonly #executor: Executor;
  readonly #users: VirtualUser[] = [];
  /** Its workers' client options, the proxy's routes with them (built once, shared by them). */
  readonly #clientOptions: ClientOptions;
  #grace: LongTimeout | undefined;
  #ended = false;

  constructor(deps: ScenarioRunDeps) {
    const { plan, share, now } = deps;
    this.#deps = deps;
    this.#clientOptions = clientOptionsOf(plan);
    this.scenario = plan.scenarios[share.scenario]!;
    this.recorder = deps.recorder;
    // The debug log shows the start of every response body: that much is kept of each.
    const requests = compileRequests(
      plan.graph,
      deps.httpDebug === undefined ? 0 : CAPTURED_BODY_BYTES,
    );
    this.path = new RequestPath({
      requests,
      recorder: this.recorder,
      now,
      auth: deps.auth,
      retry: plan.retry,
      budget: deps.budget,
      stopping: deps.stopping,
      cookies: plan.cookies,
      hosts: deps.hosts,
      capture: {
        startedAt: deps.startedAt,
        scenario: plan.namedScenarios ? this.scenario.name : undefined,
        debug: deps.httpDebug,
      },
    });
    this.runner = new IterationRunner({
      graph: { ...plan.graph, picks: this.scenario.picks },
      requests,
      recorder: this.recorder,
      path: this.path,
      feeder: deps.feeder,
      feederPer: plan.feeder?.per ?? 'iteration',
      onFeederExhausted: deps.onFeederExhausted,
      ws: deps.sessions(this.recorder),
      picks: seededRandom(deriveSeed(plan.seed, deps.thread, share.firstWorkerId, 0x9e11)),
      now,
    });
    let inTest = 0;
    this.#iterations =
      deps.scripted?.({
        path: this.path,
        recorder: this.recorder,
        exec: this.scenario.exec ?? '',
        scenario: this.scenario.name,
        nextInTest: () => share.rankFirst + inTest++ * share.rankStride,
      }) ?? this.runner;
    this.#executor = createExecutor({
      scenario: this.scenario,
      share,
      timeoutMs: plan.timeoutMs,
      now,
      recorder: this.recorder,
      random: seededRandom(deriveSeed(plan.seed, deps.thread, share.firstWorkerId, 0xa771)),
      startWorker: (source) => this.#startWorker(source),
      timeUp: () => this.end(),
    });
  }

  /** Runs the scenario's share to its end. */
  run(): Promise<void> {
    return this.#executor.run();
  }

  /** Graceful stop: no new iterations; the grace starts. */
  stop(): void {
    this.#executor.stop();
    this.end();
  }

  /** The time is up: pauses end, the grace starts (once). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.runner.stopThinking();
    this.#grace = setLongTimeout(
      () => this.#deps.graceOver(this),
      this.scenario.gracefulStopMs + GRACE_MARGIN_MS,
    );
    this.#deps.timeUp();
  }

  /** Cuts what is under way, as a hard stop does. */
  cut(): void {
    this.#executor.stop();
    for (const vu of this.#users) vu.abort(new HardStopError());
  }

  /** Iterations per second paced now (live view). */
  rate(): number | undefined {
    return this.#executor.rate();
  }

  /** Its virtual users running an iteration (or their setup) now. */
  activeUsers(): number {
    let active = 0;
    for (const vu of this.#users) if (vu.busy) active++;
    return active;
  }

  /** Ends its timers. */
  close(): void {
    this.#grace?.clear();
  }

  #startWorker(source: PermitSource): { vu: VirtualUser; done: Promise<void> } {
    const { plan, share } = this.#deps;
    const id = share.firstWorkerId + this.#users.length;
    const vu = new VirtualUser(id, seededRandom(deriveSeed(plan.seed, id)), this.#clientOptions);
    this.#users.push(vu);
    this.#deps.users.push(vu);
    this.recorder.recordVuStarted();
    return { vu, done: work(vu, this.#iterations, source) };
  }
}
