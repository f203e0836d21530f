/**
 * execute(plan) → the merged ShardSnapshot of this process: splits the plan into segments, runs
 * them, merges their shards exactly. One segment runs in this thread; more run in worker threads
 * (segment-host.ts). Live views get a merged snapshot every tick through onProgress.
 */
import type { Plan } from '../dsl/plan/plan.js';
import type { Clock } from './deps.js';
import type { ShardSnapshot } from './metrics/snapshot.js';
import type { LiveState } from './segment/live-state.js';
import { runSegment, type SegmentOutcome } from './segment/run-segment.js';
import { splitPlan } from './segment/split-plan.js';

/** How a run is driven. */
export interface ExecuteOptions {
  /** Worker threads to use (resolved from `auto` by the caller). */
  readonly threads: number;
  readonly stop: AbortSignal;
  readonly hardStop: AbortSignal;
  /** Cumulative merged snapshot and the live state every ~500 ms (dashboard, progress lines). */
  readonly onProgress?: (snapshot: ShardSnapshot, live: LiveState) => void;
}

/** The merged result of this process, and why it ended early when a segment failed fatally. */
export type ExecuteOutcome = SegmentOutcome;

/** Runs the plan to its end; returns the merged result of this process. */
export async function execute(
  plan: Plan,
  clock: Clock,
  options: ExecuteOptions,
): Promise<ExecuteOutcome> {
  const specs = splitPlan(plan, options.threads);
  if (specs.length !== 1) throw new Error('worker threads are not available yet');
  return runSegment(specs[0]!, clock, {
    stop: options.stop,
    hardStop: options.hardStop,
    ...(options.onProgress === undefined
      ? {}
      : { onSnapshot: options.onProgress, snapshotEveryMs: 500 }),
  });
}
