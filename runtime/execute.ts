/**
 * execute(plan) → the merged ShardSnapshot of this process: splits the plan into segments, runs
 * them, merges their shards exactly. One segment runs in this thread (unless `offMainThread`);
 * several run in worker threads (segment-host.ts), each with its own scheduler, workers and shard. Live views get a
 * merged snapshot every tick through onProgress.
 */
import type { Plan } from '../model/plan/plan.js';
import type { Clock } from './schedule/clock.js';
import { alignEndpoints } from './metrics/align-endpoints.js';
import { MergeMemo, mergeSnapshots } from './metrics/merge-stats.js';
import { Recorder } from './metrics/recorder.js';
import type { ShardSnapshot } from './metrics/snapshot.js';
import type { ExchangeRecord } from '../model/exchange-record.js';
import { sumLiveStates, type LiveState } from './segment/live-state.js';
import { runSegment, type SegmentOutcome } from './segment/run-segment.js';
import type { ChildHost } from './segment/child-host.js';
import type { SegmentHost } from './segment/segment-host.js';
import type { SegmentSpec } from './split/segment-spec.js';
import type { SegmentLink } from './segment/segment-link.js';
import { splitPlan } from './split/split-plan.js';

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
  /**
   * Runs even a single segment in a worker thread, leaving this thread to other work that must
   * not delay the load (live outputs encode and send their flushes here).
   */
  readonly offMainThread?: boolean;
  /** The node binary for scripted segments' child processes (default: this one). */
  readonly execPath?: string;
  /**
   * Barrage's environment, of which scripted segments' child processes get only what Node needs
   * (segment/child-env.ts); absent: none of it.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A line for the user while running (a TypeScript scenario's errors). */
  readonly onWarning?: (text: string) => void;
  /** A line of a TypeScript scenario's console (absent: they are dropped, as with --quiet). */
  readonly onConsole?: (line: string) => void;
  /** A record of the HTTP debug log, from any segment (absent: none is captured). */
  readonly onHttpDebug?: (record: ExchangeRecord) => void;
  /**
   * Registers a hook run when this process exits, however it does (a second Ctrl+C exits at
   * once); returns its removal. Scripted segments' child processes are killed by it.
   */
  readonly onExit?: (hook: () => void) => () => void;
}

/** The merged result of this process, and its failure when a segment failed. */
export type ExecuteOutcome = SegmentOutcome;

/** A segment running elsewhere: a worker thread, or a child process for scripted segments. */

/**
 * Runs the plan to its end; returns the merged result of this process. Scripted segments always
 * run in child processes (child-host.ts), even a single one.
 */
export async function execute(
  plan: Plan,
  clock: Clock,
  options: ExecuteOptions,
): Promise<ExecuteOutcome> {
  const specs = splitPlan(plan, options.threads);
  if (specs.length === 1 && plan.script === undefined && options.offMainThread !== true) {
    return runSegment(specs[0]!, clock, {
      stop: options.stop,
      hardStop: options.hardStop,
      ...(options.onProgress === undefined
        ? {}
        : { onSnapshot: options.onProgress, snapshotEveryMs: SNAPSHOT_EVERY_MS }),
      ...(options.onHttpDebug === undefined ? {} : { onHttpDebug: options.onHttpDebug }),
    });
  }
  // The hosts (worker_threads, child_process) only when segments run elsewhere: a run on one
  // thread never loads them.
  const [{ SegmentHost: segmentHost }, { ChildHost: childHost }] = await Promise.all([
    import('./segment/segment-host.js'),
    import('./segment/child-host.js'),
  ]);
  const memo = new MergeMemo();
  let pending: NodeJS.Timeout | undefined;
  // Snapshots arrive per thread; merge them at most once a tick.
  const progress = (): void => {
    if (options.onProgress === undefined || pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      const latest = hosts.flatMap((h) => (h.latest === undefined ? [] : [h.latest]));
      const live = hosts.flatMap((h) => (h.live === undefined ? [] : [h.live]));
      if (latest.length > 0)
        options.onProgress?.(mergeSnapshots(alignEndpoints(latest), memo), sumLiveStates(live));
    }, SNAPSHOT_EVERY_MS / 4);
  };
  const { hosts, children } = startHosts(specs, plan, options, progress, {
    SegmentHost: segmentHost,
    ChildHost: childHost,
  });
  // A scenario's child must not outlive this process: killed when it exits before the run ends.
  const unhook = options.onExit?.(() => children.forEach((c) => c.kill()));
  const relay = (type: 'stop' | 'hard-stop') => () => hosts.forEach((h) => h.send({ type }));
  // Segments boot at different speeds: all begin dispatch together, once every one is ready;
  // a scenario's setup() data (from the first segment) goes to all of them with `go`.
  void Promise.all(hosts.map((h) => h.ready)).then(() => {
    const setup = hosts[0]?.setup;
    hosts.forEach((h) => h.send(setup === undefined ? { type: 'go' } : { type: 'go', setup }));
  });
  options.stop.addEventListener('abort', relay('stop'));
  options.hardStop.addEventListener('abort', relay('hard-stop'));
  if (options.stop.aborted) relay('stop')();
  // A lost segment, or one that failed the run (exec.test.abort()), stops the others too: they
  // report what they have.
  const failed = (o: Awaited<(typeof hosts)[number]['outcome']>): boolean =>
    'lost' in o || o.failure !== undefined;
  for (const host of hosts)
    void host.outcome.then((o) => (failed(o) ? relay('stop')() : undefined));
  const outcomes = await Promise.all(hosts.map((h) => h.outcome));
  unhook?.();
  clearTimeout(pending);
  const snapshots = outcomes.flatMap((o) => (o.snapshot === undefined ? [] : [o.snapshot]));
  const failure = outcomes
    .map((o) => ('lost' in o ? o.lost : o.failure))
    .find((f) => f !== undefined);
  if (snapshots.length === 0) {
    if (failure === undefined) throw new Error('no segment reported');
    // Lost before its first snapshot (e.g. a scenario's setup() failed): an empty result.
    return { snapshot: emptySnapshot(plan, clock), failure };
  }
  return { snapshot: mergeSnapshots(alignEndpoints(snapshots)), failure };
}

/** The result of a run that has recorded nothing yet. */
export function emptySnapshot(plan: Plan, clock: Clock): ShardSnapshot {
  const empty = new Recorder({
    endpointCount: plan.graph.endpoints.length,
    segment: plan.segment,
    startedAt: clock.wallMs(),
    openModel: plan.scenarios.some((s) => s.executor.kind === 'arrival-rate'),
  });
  return empty.snapshot(0);
}

/** A host per segment: worker threads for YAML segments, child processes for scripted ones. */
function startHosts(
  specs: readonly SegmentSpec[],
  plan: Plan,
  options: ExecuteOptions,
  progress: () => void,
  classes: { readonly SegmentHost: typeof SegmentHost; readonly ChildHost: typeof ChildHost },
): { hosts: SegmentLink[]; children: ChildHost[] } {
  const hosts: SegmentLink[] = [];
  const children: ChildHost[] = [];
  const onHttpDebug = (record: ExchangeRecord): void => options.onHttpDebug?.(record);
  for (const spec of specs) {
    if (plan.script === undefined) {
      const host = new classes.SegmentHost(spec, SNAPSHOT_EVERY_MS, {
        onSnapshot: progress,
        onHttpDebug,
      });
      hosts.push(host);
      continue;
    }
    const child = new classes.ChildHost(
      spec,
      SNAPSHOT_EVERY_MS,
      {
        onSnapshot: progress,
        onScriptError: (text) => options.onWarning?.(text),
        onConsole: (line) => options.onConsole?.(line),
        onHttpDebug,
      },
      options.execPath,
      options.env ?? {},
    );
    hosts.push(child);
    children.push(child);
  }
  return { hosts, children };
}
