/**
 * Runs one segment: its workers (virtual users), its scheduler (open model) or closed-model permit
 * source, one metrics shard, and a deadline sweep that aborts requests past
 * their timeout. The run ends at the request limit, the duration, the pattern's end, a feeder
 * running out, or `stop`; then the permit stream closes, in-flight requests finish (bounded by
 * their timeout) and the final snapshot is returned. `hardStop` aborts in-flight requests (and
 * WebSocket sessions, retry backoffs and scenario iterations) too.
 *
 * Grace: once the run's time is up or it is stopped, what is still under way gets the run's
 * `timeout` and GRACE_MARGIN_MS more to end (the margin lets a request's own deadline fire first,
 * so it counts as `timeout`), then it is cut as a hard stop cuts it. Without that, a retry's
 * backoff or a WebSocket pause of up to a year, or a scenario awaiting in a loop, would hold the
 * run for as long as they liked. A run bounded only by its request count has no grace: its
 * iterations are what the user asked for.
 */
import type { Plan } from '../../dsl/plan/plan.js';
import type { Clock } from '../deps.js';
import { RetryBudget } from '../failure/retry-budget.js';
import { createFeeder } from '../feeder/feeder.js';
import { CompiledRequest } from '../http/compiled-request.js';
import { HardStopError, RequestTimeoutError } from '../http/exchange.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { Recorder } from '../metrics/recorder.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { deriveSeed, seededRandom } from '../random.js';
import { setLongTimeout, sleepLong, type LongTimeout } from '../schedule/long-timer.js';
import { ConstantPacer, type Pacer } from '../schedule/pacer.js';
import { scheduleEndMs } from '../schedule/permit-count.js';
import { PatternPacer } from '../schedule/pattern-pacer.js';
import { PermitQueue } from '../schedule/permit-queue.js';
import { ClosedSource, DONE, WAITING, type PermitSource } from '../schedule/permit-source.js';
import { patternPeak } from '../schedule/rate-function.js';
import { Scheduler } from '../schedule/scheduler.js';
import { ScriptRunner } from '../script/script-runner.js';
import { IterationRunner } from '../worker/iteration.js';
import { VirtualUser } from '../worker/virtual-user.js';
import type { LiveState } from './live-state.js';
import { createSegmentServices } from './segment-services.js';
import type { SegmentSpec } from './segment-spec.js';

/** How long past the run's timeout the grace period lasts (see the file comment). */
const GRACE_MARGIN_MS = 1000;

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
  await control.ready?.();
  // However far ahead (long-timer.ts); a stop meanwhile ends the wait, and the run with nothing sent.
  if (plan.startAt !== undefined && plan.startAt > clock.wallMs())
    await sleepLong(plan.startAt - clock.wallMs(), control.stop);
  const startUs = clock.nowUs();
  const now = (): number => clock.nowUs() - startUs;
  const recorder = new Recorder({
    endpointCount: plan.graph.endpoints.length,
    segment: plan.segment,
    startedAt: clock.wallMs(),
    openModel: plan.rate.kind !== 'unlimited',
  });
  // What a hard stop cuts: the user's, or the end of the grace period.
  const cut = new AbortController();
  let grace: LongTimeout | undefined;
  const startGrace = (): void => {
    grace ??= setLongTimeout(() => cut.abort(), plan.timeoutMs + GRACE_MARGIN_MS);
  };
  // Time up or stopped: workers in a think pause end their iterations (runner is made below).
  const ending = (): void => {
    runner.stopThinking();
    script?.stop();
    startGrace();
  };
  const dispatch = createDispatch(spec, now, recorder, () => ending());
  let stopping = false;
  let fatal: string | undefined;
  const { auth, ws } = createSegmentServices({
    plan,
    recorder,
    now,
    fatal: (message) => {
      fatal ??= message;
      stop();
    },
  });
  const feeder =
    plan.feeder === undefined
      ? undefined
      : createFeeder(
          plan.feeder,
          spec.records,
          seededRandom(deriveSeed(plan.seed, spec.thread, 0xfeed)),
        );
  const hosts = AllowedHosts.of(plan);
  const runner = new IterationRunner({
    graph: plan.graph,
    requests: plan.graph.endpoints.map((e) => new CompiledRequest(e)),
    recorder,
    now,
    auth,
    feeder,
    feederPer: plan.feeder?.per ?? 'iteration',
    onFeederExhausted: () => stop(),
    retry: plan.retry,
    budget:
      plan.retry === undefined
        ? undefined
        : new RetryBudget(plan.retry.budget, plan.retry.minRetriesPerSec * spec.rateShare, 0),
    stopping: () => stopping,
    ws,
    cookies: plan.cookies,
    hosts,
    picks: seededRandom(deriveSeed(plan.seed, spec.thread, spec.firstWorkerId, 0x9e11)),
  });
  const stop = (): void => {
    stopping = true;
    dispatch.stop();
    ending();
  };
  const script =
    plan.script === undefined
      ? undefined
      : new ScriptRunner({
          plan,
          script: plan.script,
          runner,
          recorder,
          auth,
          feeder,
          onFeederExhausted: stop,
          hardStop: cut.signal,
          now,
          setupData: control.setupData?.(),
          onError: control.onScriptError ?? (() => undefined),
        });
  const iterations: Iterations =
    script === undefined
      ? runner
      : {
          setup: (vu) => script.setup(vu).then(() => true),
          run: (vu, intendedUs, callbacks) => script.run(vu, intendedUs, callbacks),
        };
  const users = Array.from(
    { length: spec.workers },
    (_, i) =>
      new VirtualUser(
        spec.firstWorkerId + i,
        seededRandom(deriveSeed(plan.seed, spec.firstWorkerId + i)),
        { timeoutMs: plan.timeoutMs, insecure: plan.insecure },
      ),
  );
  const timers = startTimers(plan, users, now, recorder, control, () => dispatch.rate());
  const onStop = (): void => stop();
  const onHardStop = (): void => cut.abort();
  cut.signal.addEventListener('abort', () => {
    stop();
    for (const vu of users) vu.abort(new HardStopError());
  });
  control.stop.addEventListener('abort', onStop);
  control.hardStop.addEventListener('abort', onHardStop);
  if (control.stop.aborted) stop();
  let endUs = 0;
  try {
    const workers = users.map((vu) => work(vu, iterations, dispatch.source));
    // Let the workers reach take() first, so the first permits find them waiting, not late.
    await new Promise((resolve) => setImmediate(resolve));
    // The first OAuth 2.0 token is fetched before dispatch, so that its latency is not charged to
    // the first permits (late permits, intended-time latency). If it fails, the run has stopped.
    await auth?.prepare?.();
    dispatch.start();
    await Promise.all(workers);
    await dispatch.finished;
    endUs = now();
  } finally {
    control.stop.removeEventListener('abort', onStop);
    control.hardStop.removeEventListener('abort', onHardStop);
    grace?.clear();
    timers.stop();
    auth?.close();
    script?.close();
    await Promise.all(users.map((vu) => vu.close()));
  }
  if (control.stop.aborted) recorder.markInterrupted();
  return { snapshot: recorder.snapshot(endUs), fatal };
}

/** What workers run: the YAML scenario graph's iterations, or a TypeScript scenario's. */
type Iterations = Pick<IterationRunner, 'setup' | 'run'>;

/**
 * One worker: takes permits and runs iterations until the source says DONE (or from the start,
 * when its setup says it ends: no feeder record was left for it); rejects when an
 * iteration fails on a bug. Callbacks, not an async loop, for the reason iteration.ts gives. An
 * iteration that ends before run() returns (nothing was sent) lets the event loop turn before
 * the next one, so a worker whose every iteration ends at once cannot starve the timers that
 * stop the run.
 */
function work(vu: VirtualUser, runner: Iterations, source: PermitSource): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail: (error: unknown) => void = reject;
    let running = false;
    let endedEarly = false;
    const begin = (intended: number): void => {
      if (intended === DONE) {
        resolve();
        return;
      }
      vu.busy = true;
      running = true;
      endedEarly = false;
      try {
        runner.run(vu, intended, callbacks);
      } catch (error) {
        fail(error);
        return;
      } finally {
        running = false;
      }
      if (endedEarly) setImmediate(next);
    };
    const next = (): void => {
      vu.busy = false;
      const taken = source.take(begin);
      if (taken !== WAITING) begin(taken);
    };
    const callbacks = {
      ended: (): void => {
        if (running) endedEarly = true;
        else next();
      },
      failed: fail,
    };
    vu.busy = true;
    runner.setup(vu).then((goesOn) => (goesOn ? next() : resolve()), fail);
  });
}

interface Dispatch {
  readonly source: PermitSource;
  readonly finished: Promise<void>;
  start(): void;
  stop(): void;
  /** The pacer's rate now, permits/s; undefined in the closed model. */
  rate(): number | undefined;
}

/**
 * The closed-model source, or the open model's pacer, queue and scheduler; `timeUp`
 * is called when dispatch ends because the run's time is up.
 */
function createDispatch(
  spec: SegmentSpec,
  now: () => number,
  recorder: Recorder,
  timeUp: () => void,
): Dispatch {
  const { plan } = spec;
  const limit = spec.requests ?? Infinity;
  const endUs = scheduleEndMs(plan) * 1000;
  if (plan.rate.kind === 'unlimited') {
    const source = new ClosedSource(limit);
    let timer: LongTimeout | undefined;
    let stopped = false;
    return {
      source,
      finished: Promise.resolve(),
      start: () => {
        if (Number.isFinite(endUs) && !stopped)
          timer = setLongTimeout(() => {
            source.close();
            timeUp();
          }, endUs / 1000);
      },
      stop: () => {
        stopped = true;
        timer?.clear();
        source.close();
      },
      rate: () => undefined,
    };
  }
  const pacer: Pacer =
    plan.rate.kind === 'constant'
      ? new ConstantPacer(plan.rate.rate * spec.rateShare, spec.phase, spec.permits)
      : new PatternPacer(plan.rate.pattern, spec.rateShare, spec.phase, spec.permits);
  // A permit may wait for a worker at most one timeout; at most that many seconds of permits wait.
  const maxBacklog = Math.max(
    1024,
    Math.ceil(maxRate(plan) * spec.rateShare * (plan.timeoutMs / 1000)),
  );
  const queue = new PermitQueue(now, plan.timeoutMs * 1000, maxBacklog, {
    late: () => recorder.recordLate(),
    dropped: (count) => recorder.recordDropped(count),
  });
  const scheduler = new Scheduler(pacer, queue, now, limit, endUs);
  let finished: Promise<void> = Promise.resolve();
  return {
    source: queue,
    get finished() {
      return finished;
    },
    start: () => {
      finished = scheduler.run().finally(() => {
        if (now() >= endUs) timeUp();
      });
    },
    stop: () => scheduler.stop(),
    rate: () => pacer.rateAt(now()),
  };
}

function maxRate(plan: Plan): number {
  if (plan.rate.kind === 'constant') return plan.rate.rate;
  return plan.rate.kind === 'pattern' ? patternPeak(plan.rate.pattern) : 0;
}

/** The deadline sweep and the snapshot timer. */
function startTimers(
  plan: Plan,
  users: readonly VirtualUser[],
  now: () => number,
  recorder: Recorder,
  control: SegmentControl,
  rate: () => number | undefined,
): { stop(): void } {
  // One sweep for all workers instead of a timer per request: a deadline is enforced within
  // timeout/20 (at least 5 ms, at most 250 ms) of passing.
  const sweepMs = Math.min(250, Math.max(5, plan.timeoutMs / 20));
  const sweep = setInterval(() => {
    const t = now();
    for (const vu of users)
      if (vu.deadlineUs !== 0 && t > vu.deadlineUs) vu.abort(new RequestTimeoutError());
  }, sweepMs);
  const snapshots =
    control.onSnapshot === undefined
      ? undefined
      : setInterval(
          () => control.onSnapshot?.(recorder.snapshot(now()), liveState(users, rate())),
          control.snapshotEveryMs ?? 500,
        );
  return {
    stop: () => {
      clearInterval(sweep);
      clearInterval(snapshots);
    },
  };
}

/** Busy workers and requests in flight, counted when a snapshot is taken (never per request). */
function liveState(users: readonly VirtualUser[], targetRate: number | undefined): LiveState {
  let busy = 0;
  let inFlight = 0;
  for (const vu of users) {
    if (vu.busy) busy++;
    if (vu.deadlineUs !== 0) inFlight++;
  }
  return { workers: users.length, busy, inFlight, targetRate };
}
