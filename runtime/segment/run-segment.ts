/**
 * Runs one segment: imports what its plan needs, waits for its start, then assembles it once
 * (segment.ts: the shared services, one ScenarioRun per scenario share with its shard, request
 * path, iterations, executor and workers, scenario-run.ts), runs it, and returns the final
 * snapshot. Each scenario ends at its own limits (its duration, its
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
import type { RunFailure } from '../../model/errors/run-failure.js';
import type { Clock } from '../schedule/clock.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { sleepLong } from '../schedule/long-timer.js';
import type { LiveState } from './live-state.js';
import { importPlanReaders } from '../worker/plan-readers.js';
import { Segment } from './segment.js';
import { importServiceModules } from './segment-services.js';
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

/** A segment's outcome: its shard, and the failure that ended it early. */
export interface SegmentOutcome {
  readonly snapshot: ShardSnapshot;
  readonly failure: RunFailure | undefined;
}

/** Runs a segment to its end and returns its final snapshot. */
export async function runSegment(
  spec: SegmentSpec,
  clock: Clock,
  control: SegmentControl,
): Promise<SegmentOutcome> {
  const { plan } = spec;
  // What only some plans use (WebSocket sessions, a TypeScript scenario's bridge, the HTML
  // parser, JSONPath, the event stream parser) is imported for those alone, before dispatch can
  // begin: each costs a start milliseconds to load.
  const [services, scripting] = await Promise.all([
    importServiceModules(plan),
    plan.script === undefined ? undefined : import('../script/script-runner.js'),
    importPlanReaders(plan),
  ]);
  await control.ready?.();
  // However far ahead (long-timer.ts); a stop meanwhile ends the wait, and the run with nothing sent.
  if (plan.startAt !== undefined && plan.startAt > clock.wallMs())
    await sleepLong(plan.startAt - clock.wallMs(), control.stop);
  return new Segment(spec, clock, control, { services, scripting }).run();
}
