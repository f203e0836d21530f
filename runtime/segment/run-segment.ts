/**
 * Runs one segment: it assembles the segment's shared services (auth, feeder, retry budget),
 * one ScenarioRun per scenario share (its shard, request path, iterations, executor and workers:
 * scenario-run.ts), the deadline sweep and the live snapshots; starts them; awaits them; closes
 * them, and returns the final snapshot. Each scenario ends at its own limits (its duration, its
 * iterations, its stages) or at `stop`; a feeder running out stops them all. `hardStop` aborts
 * in-flight requests (and WebSocket sessions, retry backoffs and scenario iterations) too.
 *
 * Grace: once a scenario's time is up or it is stopped, what it still has under way gets its
 * graceful stop (the top-level form's: the run's `timeout`) and GRACE_MARGIN_MS more to end, then
 * it is cut as a hard stop cuts it. Without that, a retry's backoff or a WebSocket pause of up to
 * a year, or a scenario awaiting in a loop, would hold the run for as long as they liked. A run
 * bounded only by its request count has no grace: its iterations are what the user asked for.
 *
 * The snapshot of a run of the top-level form is its one scenario's shard; with named scenarios
 * it is their merge, each scenario's own under `scenarios`.
 */
import { alignEndpoints } from '../metrics/align-endpoints.js';
import type { Plan } from '../../model/plan/plan.js';
import type { Clock } from '../schedule/clock.js';
import { RetryBudget } from '../failure/retry-budget.js';
import { HttpDebugTap } from '../debug/http-debug-tap.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import { createFeeder } from '../feeder/feeder.js';
import { HardStopError } from '../../model/errors/barrage-error.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { mergeSnapshots } from '../metrics/merge-stats.js';
import { Recorder } from '../metrics/recorder.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { deriveSeed, seededRandom } from '../../model/random.js';
import { sleepLong } from '../schedule/long-timer.js';
import type { VirtualUser } from '../user/virtual-user.js';
import type { LiveState } from './live-state.js';
import { startDeadlineSweep } from '../user/deadline-sweep.js';
import { startLiveSnapshots } from './live-snapshots.js';
import { startVuSampler } from './vu-sampler.js';
import { importPlanReaders } from '../worker/plan-readers.js';
import { ScenarioRun } from './scenario-run.js';
import { createSegmentServices, importServiceModules } from './segment-services.js';
import type { SegmentSpec } from '../split/segment-spec.js';

/** How a segment is driven from outside. */
export interface SegmentControl {
  /** Graceful stop: no new permits; in-flight requests finish. */
  readonly stop: AbortSignal;
  /** Hard stop: in-flight requests are aborted too. */
  readonly hardStop: AbortSignal;
  /** Receives a cumulative snapshot and the live state every `snapshotEveryMs` (live views). */
  readonly onSnapshot?: (snapshot: ShardSnapshot, live: LiveState) => void;
  readonly snapshotEveryMs?: number;
  /** Resolves when dispatch may begin (worker threads start together); absent: at once. */
  readonly ready?: () => Promise<void>;
  /** A TypeScript scenario's setup() data (after ready), copied into every iteration. */
  readonly setupData?: () => unknown;
  /** A distinct error of a TypeScript scenario, as a line for the user. */
  readonly onScriptError?: (text: string) => void;
  /** A line of a TypeScript scenario's console; absent: console calls print nothing. */
  readonly onConsole?: (line: string) => void;
  /** A record of the HTTP debug log (the plan's `httpDebug`); absent: none is captured. */
  readonly onHttpDebug?: (record: ExchangeRecord) => void;
}

/** A segment's outcome: its shard, and the message of a fatal error that ended it early. */
export interface SegmentOutcome {
  readonly snapshot: ShardSnapshot;
  readonly fatal: string | undefined;
}

/** Runs a segment to its end and returns its final snapshot. */
export async function runSegment(
  spec: SegmentSpec,
  clock: Clock,
  control: SegmentControl,
): Promise<SegmentOutcome> {
  const { plan } = spec;
  // What only some plans use (WebSocket sessions, a TypeScript scenario's bridge, the HTML
  // parser, JSONPath, the event stream parser) is imported for those alone, before dispatch can begin: each costs a start
  // milliseconds to load.
  const [modules, scripting] = await Promise.all([
    importServiceModules(plan),
    plan.script === undefined ? undefined : import('../script/script-runner.js'),
    importPlanReaders(plan),
  ]);
  await control.ready?.();
  // However far ahead (long-timer.ts); a stop meanwhile ends the wait, and the run with nothing sent.
  if (plan.startAt !== undefined && plan.startAt > clock.wallMs())
    await sleepLong(plan.startAt - clock.wallMs(), control.stop);
  const startUs = clock.nowUs();
  const startedAt = clock.wallMs();
  const now = (): number => clock.nowUs() - startUs;
  // Records what belongs to no scenario (token fetches) in a run of named scenarios.
  const segmentRecorder = new Recorder({
    endpointCount: plan.graph.endpoints.length,
    segment: plan.segment,
    startedAt,
    openModel: false,
  });
  let stopping = false;
  let fatal: string | undefined;
  const runs: ScenarioRun[] = [];
  const users: VirtualUser[] = [];
  const stop = (): void => {
    stopping = true;
    for (const run of runs) run.stop();
    script?.stop();
  };
  let ended = 0;
  const { auth, sessions } = createSegmentServices(
    {
      plan,
      recorder: segmentRecorder,
      now,
      fatal: (message) => {
        fatal ??= message;
        stop();
      },
    },
    modules,
  );
  const feeder =
    plan.feeder === undefined
      ? undefined
      : createFeeder(
          plan.feeder,
          spec.records,
          seededRandom(deriveSeed(plan.seed, spec.thread, 0xfeed)),
        );
  const budget =
    plan.retry === undefined
      ? undefined
      : new RetryBudget(plan.retry.budget, plan.retry.minRetriesPerSec * spec.rateShare, 0);
  const hosts = AllowedHosts.of(plan);
  const httpDebug =
    plan.httpDebug === undefined || control.onHttpDebug === undefined
      ? undefined
      : new HttpDebugTap(plan.httpDebug, control.onHttpDebug, () => now() / 1000);
  for (const share of spec.scenarios)
    runs.push(
      new ScenarioRun({
        plan,
        share,
        thread: spec.thread,
        now,
        startedAt,
        auth,
        feeder,
        budget,
        hosts,
        stopping: () => stopping,
        sessions,
        onFeederExhausted: stop,
        users,
        // Every scenario's time is up: a TypeScript scenario's sockets close.
        timeUp: () => {
          if (++ended === runs.length) script?.stop();
        },
        // A TypeScript scenario's iterations are cut in its sandbox, as a hard stop cuts them.
        graceOver: (run) => (script === undefined ? run.cut() : cut.abort()),
        httpDebug,
      }),
    );
  // What a hard stop cuts: the user's.
  const cut = new AbortController();
  const first = runs[0]!;
  const script =
    plan.script === undefined || scripting === undefined
      ? undefined
      : new scripting.ScriptRunner({
          plan,
          script: plan.script,
          recorders: [segmentRecorder, ...runs.map((run) => run.recorder)],
          strayRecorder: first.recorder,
          auth,
          feeder,
          onFeederExhausted: stop,
          hardStop: cut.signal,
          now,
          setupData: control.setupData?.(),
          onError: control.onScriptError ?? (() => undefined),
          ...(control.onConsole === undefined ? {} : { onConsole: control.onConsole }),
        });
  if (script !== undefined)
    for (const run of runs) {
      const lane = { path: run.path, recorder: run.recorder, exec: run.scenario.exec ?? '' };
      run.setIterations({
        setup: (vu) => script.setup(vu).then(() => true),
        run: (vu, intendedUs, callbacks) => script.run(vu, intendedUs, callbacks, lane),
      });
    }
  const snapshotAt = (us: number): ShardSnapshot => {
    const snapshot = shardSnapshot(plan, runs, segmentRecorder, us);
    const dropped = httpDebug?.dropped ?? 0;
    return dropped === 0 ? snapshot : { ...snapshot, httpDebugDropped: dropped };
  };
  const stopSweep = startDeadlineSweep(users, plan.timeoutMs, now);
  const stopVuSampler = startVuSampler(runs, now);
  const stopSnapshots =
    control.onSnapshot === undefined
      ? undefined
      : startLiveSnapshots(
          users,
          snapshotAt,
          now,
          control.snapshotEveryMs ?? 500,
          () => totalRate(runs),
          control.onSnapshot,
        );
  const onStop = (): void => stop();
  const onHardStop = (): void => cut.abort();
  cut.signal.addEventListener('abort', () => {
    stop();
    for (const run of runs) run.cut();
    for (const vu of users) vu.abort(new HardStopError());
  });
  control.stop.addEventListener('abort', onStop);
  control.hardStop.addEventListener('abort', onHardStop);
  let endUs = 0;
  try {
    // The first OAuth 2.0 token is fetched before dispatch, so that its latency is not charged to
    // the first permits (late permits, intended-time latency). If it fails, the run has stopped.
    await auth?.prepare?.();
    if (control.stop.aborted) stop();
    await Promise.all(runs.map((run) => run.run()));
    endUs = now();
  } finally {
    control.stop.removeEventListener('abort', onStop);
    control.hardStop.removeEventListener('abort', onHardStop);
    for (const run of runs) run.close();
    stopSweep();
    stopVuSampler();
    stopSnapshots?.();
    auth?.close();
    script?.close();
    await Promise.all(users.map((vu) => vu.close()));
  }
  if (control.stop.aborted) {
    segmentRecorder.markInterrupted();
    for (const run of runs) run.recorder.markInterrupted();
  }
  return { snapshot: snapshotAt(endUs), fatal };
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
