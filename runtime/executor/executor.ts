/**
 * Executors (docs/configuration.md, Scenarios), one per file as k6's lib/executor/ has them: how
 * a scenario starts its iterations, over the permit sources of runtime/schedule/. Each runs its
 * scenario's dispatch and the workers it starts, from the scenario's start time to its end:
 *
 *   vus-executor.ts           a fixed pool looping: constant-vus, shared- and per-vu-iterations
 *   ramping-vus-executor.ts   a pool whose active size follows the stages
 *   arrival-rate-executor.ts  iterations on a schedule, by a pool that grows up to max_vus
 */
import type { ScenarioPlan } from '../../model/plan/scenario-plan.js';
import type { Recorder } from '../metrics/recorder.js';
import type { Random } from '../../model/random.js';
import type { PermitSource } from '../schedule/permit-source.js';
import type { ScenarioShare } from '../split/segment-spec.js';
import type { VirtualUser } from '../user/virtual-user.js';
import { ArrivalRateExecutor } from './arrival-rate-executor.js';
import { RampingVusExecutor } from './ramping-vus-executor.js';
import { VusExecutor } from './vus-executor.js';

/** A worker an executor started. */
export interface StartedWorker {
  readonly vu: VirtualUser;
  /** Resolves when the worker has exited (its source said DONE). */
  readonly done: Promise<void>;
}

/** What an executor needs from its segment. */
export interface ExecutorContext {
  readonly scenario: ScenarioPlan;
  readonly share: ScenarioShare;
  /** The run's request timeout, ms (how long a late permit of the top-level form may wait). */
  readonly timeoutMs: number;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** The scenario's metrics shard. */
  readonly recorder: Recorder;
  /** The scenario's seeded random source in this segment (Poisson arrivals). */
  readonly random: Random;
  /** Starts a worker whose permits come from `source`. */
  readonly startWorker: (source: PermitSource) => StartedWorker;
  /** The scenario's time is up: its dispatch ended by the clock, not by a count or a stop. */
  readonly timeUp: () => void;
}

/** How a scenario starts its iterations. */
export interface Executor {
  /** Runs its dispatch and its workers to their end (from its start time). */
  run(): Promise<void>;
  /** Graceful stop: no new iterations; those under way finish. */
  stop(): void;
  /** Iterations per second it paces now, for live views; undefined when it does not pace. */
  rate(): number | undefined;
}

/** The executor of a scenario's share. */
export function createExecutor(context: ExecutorContext): Executor {
  switch (context.scenario.executor.kind) {
    case 'vus':
      return new VusExecutor(context);
    case 'ramping-vus':
      return new RampingVusExecutor(context);
    case 'arrival-rate':
      return new ArrivalRateExecutor(context);
  }
}
