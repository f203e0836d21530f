/**
 * execute(plan) → the merged ShardSnapshot of this process: splits the plan into segments, runs
 * them, merges their shards exactly. One segment runs in this thread; several run in worker
 * threads (segment-host.ts), each with its own scheduler, workers and shard. Live views get a
 * merged snapshot every tick through onProgress.
 */
import type { Plan } from '../dsl/plan/plan.js';
import type { Clock } from './deps.js';
import { MergeMemo, mergeSnapshots } from './metrics/merge-stats.js';
import type { ShardSnapshot } from './metrics/snapshot.js';
import { sumLiveStates, type LiveState } from './segment/live-state.js';
import { runSegment, type SegmentOutcome } from './segment/run-segment.js';
import { SegmentHost } from './segment/segment-host.js';
import { splitPlan } from './segment/split-plan.js';

/** Period of live snapshots (the dashboard refreshes every 500 ms: spec §8). */
const SNAPSHOT_EVERY_MS = 500;

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
  if (specs.length === 1) {
    return runSegment(specs[0]!, clock, {
      stop: options.stop,
      hardStop: options.hardStop,
      ...(options.onProgress === undefined
        ? {}
        : { onSnapshot: options.onProgress, snapshotEveryMs: SNAPSHOT_EVERY_MS }),
    });
  }
  const memo = new MergeMemo();
  let pending: NodeJS.Timeout | undefined;
  const hosts: SegmentHost[] = [];
  // Snapshots arrive per thread; merge them at most once a tick.
  const progress = (): void => {
    if (options.onProgress === undefined || pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      const latest = hosts.flatMap((h) => (h.latest === undefined ? [] : [h.latest]));
      const live = hosts.flatMap((h) => (h.live === undefined ? [] : [h.live]));
      if (latest.length > 0)
        options.onProgress?.(mergeSnapshots(latest, memo), sumLiveStates(live));
    }, SNAPSHOT_EVERY_MS / 4);
  };
  for (const spec of specs) hosts.push(new SegmentHost(spec, SNAPSHOT_EVERY_MS, progress));
  const relay = (type: 'go' | 'stop' | 'hard-stop') => () => hosts.forEach((h) => h.send({ type }));
  // Threads boot at different speeds: all begin dispatch together, once every one is ready.
  void Promise.all(hosts.map((h) => h.ready)).then(relay('go'));
  options.stop.addEventListener('abort', relay('stop'));
  options.hardStop.addEventListener('abort', relay('hard-stop'));
  if (options.stop.aborted) relay('stop')();
  // A lost thread fails the run: the others stop too, and report what they have.
  for (const host of hosts)
    void host.outcome.then((o) => ('lost' in o ? relay('stop')() : undefined));
  const outcomes = await Promise.all(hosts.map((h) => h.outcome));
  clearTimeout(pending);
  const snapshots = outcomes.flatMap((o) => (o.snapshot === undefined ? [] : [o.snapshot]));
  const fatal = outcomes.map((o) => ('lost' in o ? o.lost : o.fatal)).find((m) => m !== undefined);
  if (snapshots.length === 0) throw new Error(fatal ?? 'no segment reported');
  return { snapshot: mergeSnapshots(snapshots), fatal };
}
