/**
 * An executor's context in process, as runtime/segment/scenario-run.ts builds it, over a clock the
 * test sets (`clock.us`) and workers that run the real worker loop (worker-loop.ts) over iterations
 * that send nothing: each iteration is noted, and ends at once or is held until released. The
 * scenario and its share come from a configuration, through dsl/ and the real split.
 */
import { seededRandom } from '../../model/random.js';
import type { ExecutorContext } from '../../runtime/executor/executor.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { splitPlan } from '../../runtime/split/split-plan.js';
import type { ScenarioShare } from '../../runtime/split/segment-spec.js';
import type { IterationCallbacks } from '../../runtime/worker/iteration.js';
import { clientOptionsOf, VirtualUser } from '../../runtime/user/virtual-user.js';
import { work } from '../../runtime/worker/worker-loop.js';
import { eventually } from './eventually.js';
import { planOf } from './segment-run.js';

/** How the rig's iterations end: at once, or when the test releases them. */
export type IterationMode = 'instant' | 'held';

/** An executor's context and what its workers did. */
export interface ExecutorRig {
  readonly context: ExecutorContext;
  readonly share: ScenarioShare;
  /** The clock `context.now` reads (unless replaced), µs since dispatch start; the test moves it. */
  readonly clock: { us: number };
  mode: IterationMode;
  /** The intended time of each iteration run, in the order they began. */
  readonly ran: number[];
  /** Iterations run by each worker, by worker id. */
  readonly perWorker: Map<number, number>;
  readonly workers: VirtualUser[];
  /** Held iterations not yet released. */
  readonly held: IterationCallbacks[];
  timeUps: number;
  /** Ends every held iteration. */
  release(): void;
  snapshot(): ShardSnapshot;
  /** Iterations run plus permits dropped: the permits the schedule has given out. */
  given(): number;
  /** Resolves once `given()` reaches `count` and no worker is between two permits. */
  settle(count: number): Promise<void>;
}

/**
 * The rig of the one scenario of `config` (its `scenarios` entry or its top-level form; seed 7, one
 * thread); `now` replaces the test's clock (the real one, say).
 */
export function executorRig(
  config: Record<string, unknown>,
  mode: IterationMode,
  now?: () => number,
): ExecutorRig {
  const plan = planOf({ target: 'http://127.0.0.1:9', ...config });
  const share = splitPlan(plan, 1)[0]!.scenarios[0]!;
  const recorder = new Recorder({
    endpointCount: 0,
    segment: plan.segment,
    startedAt: Date.now(),
    openModel: true,
  });
  const clientOptions = clientOptionsOf(plan);
  const iterations = {
    setup: () => Promise.resolve(true),
    run: (vu: VirtualUser, intendedUs: number, callbacks: IterationCallbacks): void => {
      rig.ran.push(intendedUs);
      rig.perWorker.set(vu.id, (rig.perWorker.get(vu.id) ?? 0) + 1);
      if (rig.mode === 'held') rig.held.push(callbacks);
      else callbacks.ended();
    },
  };
  const rig: ExecutorRig = {
    share,
    clock: { us: 0 },
    mode,
    ran: [],
    perWorker: new Map(),
    workers: [],
    held: [],
    timeUps: 0,
    release: () => {
      for (const callbacks of rig.held.splice(0)) callbacks.ended();
    },
    snapshot: () => recorder.snapshot(rig.clock.us),
    given: () => rig.ran.length + recorder.snapshot(rig.clock.us).dropped,
    // A worker is holding an iteration (busy) or waiting at its source; one that is neither is
    // between two permits (just started, or ending an iteration).
    settle: (count) =>
      eventually(
        () =>
          rig.given() >= count && rig.workers.filter((vu) => vu.busy).length === rig.held.length,
      ),
    context: {
      scenario: plan.scenarios[0]!,
      share,
      timeoutMs: plan.timeoutMs,
      now: now ?? (() => rig.clock.us),
      recorder,
      random: seededRandom(1),
      startWorker: (source) => {
        const id = share.firstWorkerId + rig.workers.length;
        const vu = new VirtualUser(id, seededRandom(id), clientOptions);
        rig.workers.push(vu);
        return { vu, done: work(vu, iterations, source) };
      },
      timeUp: () => rig.timeUps++,
    },
  };
  return rig;
}
