/**
 * One segment, assembled once: its shared services (auth, feeder, retry budget, allowed hosts,
 * the HTTP debug tap), one shard a scenario share, a TypeScript scenario's runner recording into
 * those shards, and one ScenarioRun a share with its iterations (the YAML runner's or the
 * scenario's) given at construction. run() starts the deadline sweep, the VU sampler and the live
 * snapshots, awaits every scenario run, closes everything and returns the final snapshot
 * (run-segment.ts says how a segment ends and what its grace is).
 */
import type { RunFailure } from '../../model/errors/run-failure.js';
import { alignEndpoints } from '../metrics/align-endpoints.js';
import type { Plan } from '../../model/plan/plan.js';
import type { Clock } from '../schedule/clock.js';
import { RetryBudget } from '../failure/retry-budget.js';
import { HttpDebugTap } from '../debug/http-debug-tap.js';
import { createFeeder, type Feeder } from '../feeder/feeder.js';
import { HardStopError } from '../../model/errors/barrage-error.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { mergeSnapshots } from '../metrics/merge-stats.js';
import { Recorder } from '../metrics/recorder.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { deriveSeed, seededRandom } from '../../model/random.js';
import type { VirtualUser } from '../user/virtual-user.js';
import { startDeadlineSweep } from '../user/deadline-sweep.js';
import { startLiveSnapshots } from './live-snapshots.js';
import { startVuSampler } from './vu-sampler.js';
import { ScenarioRun, scenarioRecorder } from './scenario-run.js';
import {
  createSegmentServices,
  type SegmentServices,
  type ServiceModules,
} from './segment-services.js';
import type { SegmentSpec } from '../split/segment-spec.js';
import type { ScriptRunner } from '../script/script-runner.js';
import type { SegmentControl, SegmentOutcome } from './run-segment.js';

/** The modules a segment imports before it is assembled (only those its plan needs). */
export interface SegmentModules {
  readonly services: ServiceModules;
  readonly scripting: { readonly ScriptRunner: typeof ScriptRunner } | undefined;
}

/** What every scenario run of the segment shares. */
interface Shared {
  readonly services: SegmentServices;
  readonly feeder: Feeder | undefined;
  readonly budget: RetryBudget | undefined;
  readonly hosts: AllowedHosts;
  readonly httpDebug: HttpDebugTap | undefined;
}

/** A segment: assembled by its constructor, run once. */
export class Segment {
  readonly #spec: SegmentSpec;
  readonly #control: SegmentControl;
  /** µs since dispatch start. */
  readonly #now: () => number;
  /** Records what belongs to no scenario (token fetches) in a run of named scenarios. */
  readonly #recorder: Recorder;
  readonly #shared: Shared;
  readonly #script: ScriptRunner | undefined;
  readonly #runs: readonly ScenarioRun[];
  readonly #users: VirtualUser[] = [];
  /** What a hard stop cuts: the users'. */
  readonly #cut = new AbortController();
  #stopping = false;
  #failure: RunFailure | undefined;
  #ended = 0;

  /** Assembled when dispatch begins: the clock's now is dispatch start. */
  constructor(spec: SegmentSpec, clock: Clock, control: SegmentControl, modules: SegmentModules) {
    const { plan } = spec;
    this.#spec = spec;
    this.#control = control;
    const startUs = clock.nowUs();
    this.#now = () => clock.nowUs() - startUs;
    const startedAt = clock.wallMs();
    this.#recorder = new Recorder({
      endpointCount: plan.graph.endpoints.length,
      segment: plan.segment,
      startedAt,
      openModel: false,
    });
    this.#shared = this.#sharedServices(modules.services);
    const shards = spec.scenarios.map((share) => scenarioRecorder(plan, share, startedAt));
    this.#script = this.#scriptRunner(modules.scripting, shards);
    this.#runs = spec.scenarios.map((share, i) => this.#scenarioRun(share, shards[i]!, startedAt));
    this.#cut.signal.addEventListener('abort', () => {
      this.#stop();
      for (const run of this.#runs) run.cut();
      for (const vu of this.#users) vu.abort(new HardStopError());
    });
  }

  /** Runs every scenario share to its end; the final snapshot, and the run's failure if any. */
  async run(): Promise<SegmentOutcome> {
    const control = this.#control;
    const stops = [
      startDeadlineSweep(this.#users, this.#spec.plan.timeoutMs, this.#now),
      startVuSampler(this.#runs, this.#now),
      control.onSnapshot === undefined
        ? () => undefined
        : startLiveSnapshots(
            this.#users,
            (us) => this.#snapshotAt(us),
            this.#now,
            control.snapshotEveryMs ?? 500,
            () => totalRate(this.#runs),
            control.onSnapshot,
          ),
    ];
    const onStop = (): void => this.#stop();
    const onHardStop = (): void => this.#cut.abort();
    control.stop.addEventListener('abort', onStop);
    control.hardStop.addEventListener('abort', onHardStop);
    let endUs = 0;
    const { auth } = this.#shared.services;
    try {
      // The first OAuth 2.0 token is fetched before dispatch, so that its latency is not charged
      // to the first permits (late permits, intended-time latency). If it fails, the run stopped.
      await auth?.prepare?.();
      if (control.stop.aborted) this.#stop();
      await Promise.all(this.#runs.map((run) => run.run()));
      endUs = this.#now();
    } finally {
      control.stop.removeEventListener('abort', onStop);
      control.hardStop.removeEventListener('abort', onHardStop);
      for (const run of this.#runs) run.close();
      for (const stop of stops) stop();
      auth?.close();
      this.#script?.close();
      await Promise.all(this.#users.map((vu) => vu.close()));
    }
    if (control.stop.aborted) {
      this.#recorder.markInterrupted();
      for (const run of this.#runs) run.recorder.markInterrupted();
    }
    return { snapshot: this.#snapshotAt(endUs), failure: this.#failure };
  }

  /** Stops the run as failed (the first failure is the one reported). */
  readonly #fail = (failure: RunFailure): void => {
    this.#failure ??= failure;
    this.#stop();
  };

  /** Graceful stop of every scenario run (and the scenario's sockets). */
  #stop(): void {
    this.#stopping = true;
    for (const run of this.#runs) run.stop();
    this.#script?.stop();
  }

  #sharedServices(modules: ServiceModules): Shared {
    const { plan } = this.#spec;
    const services = createSegmentServices(
      {
        plan,
        recorder: this.#recorder,
        now: this.#now,
        fail: this.#fail,
      },
      modules,
    );
    const random = seededRandom(deriveSeed(plan.seed, this.#spec.thread, 0xfeed));
    const { onHttpDebug } = this.#control;
    return {
      services,
      feeder:
        plan.feeder === undefined
          ? undefined
          : createFeeder(plan.feeder, this.#spec.records, random),
      budget:
        plan.retry === undefined
          ? undefined
          : new RetryBudget(
              plan.retry.budget,
              plan.retry.minRetriesPerSec * this.#spec.rateShare,
              0,
            ),
      hosts: AllowedHosts.of(plan),
      httpDebug:
        plan.httpDebug === undefined || onHttpDebug === undefined
          ? undefined
          : new HttpDebugTap(plan.httpDebug, onHttpDebug, () => this.#now() / 1000),
    };
  }

  /** A TypeScript scenario's runner, recording into the segment's and the shares' shards. */
  #scriptRunner(
    scripting: SegmentModules['scripting'],
    shards: readonly Recorder[],
  ): ScriptRunner | undefined {
    const { plan } = this.#spec;
    if (plan.script === undefined || scripting === undefined) return undefined;
    const control = this.#control;
    return new scripting.ScriptRunner({
      plan,
      script: plan.script,
      recorders: [this.#recorder, ...shards],
      strayRecorder: shards[0]!,
      auth: this.#shared.services.auth,
      feeder: this.#shared.feeder,
      onFeederExhausted: () => this.#stop(),
      hardStop: this.#cut.signal,
      now: this.#now,
      setupData: control.setupData?.(),
      onError: control.onScriptError ?? (() => undefined),
      abortTest: (message) => this.#fail({ code: 'test_aborted', message }),
      vus: this.#spec.scenarios.reduce((sum, share) => sum + share.maxWorkers, 0),
      fail: this.#fail,
      ...(control.onConsole === undefined ? {} : { onConsole: control.onConsole }),
    });
  }

  #scenarioRun(
    share: SegmentSpec['scenarios'][number],
    recorder: Recorder,
    startedAt: number,
  ): ScenarioRun {
    const { plan, thread } = this.#spec;
    const script = this.#script;
    const { services, ...shared } = this.#shared;
    return new ScenarioRun({
      plan,
      share,
      thread,
      now: this.#now,
      startedAt,
      auth: services.auth,
      sessions: services.sessions,
      ...shared,
      recorder,
      stopping: () => this.#stopping,
      onFeederExhausted: () => this.#stop(),
      users: this.#users,
      // Every scenario's time is up: a TypeScript scenario's sockets close.
      timeUp: () => {
        if (++this.#ended === this.#runs.length) script?.stop();
      },
      // A TypeScript scenario's iterations are cut in its sandbox, as a hard stop cuts them.
      graceOver: (run) => (script === undefined ? run.cut() : this.#cut.abort()),
      ...(script === undefined
        ? {}
        : {
            scripted: (lane) => ({
              setup: (vu) => script.setup(vu).then(() => true),
              run: (vu, intendedUs, callbacks) => script.run(vu, intendedUs, callbacks, lane),
            }),
          }),
    });
  }

  #snapshotAt(us: number): ShardSnapshot {
    const snapshot = shardSnapshot(this.#spec.plan, this.#runs, this.#recorder, us);
    const dropped = this.#shared.httpDebug?.dropped ?? 0;
    return dropped === 0 ? snapshot : { ...snapshot, httpDebugDropped: dropped };
  }
}

/**
 * The segment's snapshot: its one scenario's shard (the top-level form), or the merge of its
 * scenarios' shards and what belongs to none, each scenario's own under `scenarios`.
 */
function shardSnapshot(
  plan: Plan,
  runs: readonly ScenarioRun[],
  segmentRecorder: Recorder,
  us: number,
): ShardSnapshot {
  const parts = runs.map((run) => run.recorder.snapshot(us));
  if (!plan.namedScenarios) {
    const own = segmentRecorder.snapshot(us);
    // Token fetches of the top-level form belong to its one scenario.
    return own.auth === undefined ? parts[0]! : { ...parts[0]!, auth: own.auth };
  }
  // A TypeScript scenario's parts name their requests in their own orders: aligned first.
  const merged = mergeSnapshots(alignEndpoints([segmentRecorder.snapshot(us), ...parts]));
  // A scenario's sample failures are in the merge already: its own figures go without them.
  const own = parts.map(({ sampleFailures: _samples, ...rest }) => rest);
  return {
    ...merged,
    segments: [plan.segment],
    scenarios: Object.fromEntries(runs.map((run, i) => [run.scenario.name, own[i]!])),
  };
}

/** The paced rate of the segment's scenarios now; undefined when none paces. */
function totalRate(runs: readonly ScenarioRun[]): number | undefined {
  let total: number | undefined;
  for (const run of runs) {
    const rate = run.rate();
    if (rate !== undefined) total = (total ?? 0) + rate;
  }
  return total;
}
