/**
 * `abort_on_fail` (k6's abortOnFail): a threshold judged on every live cumulative snapshot of the
 * run, from its `delayMs` after dispatch began, stops the run the first time it fails. Rates and
 * percentiles of a run still going are never certain (the first seconds may be all failures or
 * all cold starts), so the delay is the only guard against a warm-up stopping the run. A
 * threshold with no data yet (actual null) does not stop it: the end still judges that one.
 */
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import type { SampleTable } from '../metrics/sample-select.js';
import { evaluateThresholds } from './evaluate.js';

/** The threshold that stopped the run, and when: ms since dispatch began. */
export interface ThresholdAbort {
  readonly threshold: string;
  readonly atMs: number;
}

/**
 * The first `abort_on_fail` threshold, in configuration order, that fails on `snapshot` once its
 * delay has passed; undefined when none does.
 */
export function abortingThreshold(
  specs: readonly ThresholdSpec[],
  snapshot: ShardSnapshot,
  table: SampleTable,
): ThresholdAbort | undefined {
  const due = specs.filter(
    (spec) => spec.abortOnFail !== undefined && snapshot.elapsedMs >= spec.abortOnFail.delayMs,
  );
  if (due.length === 0) return undefined;
  const failed = evaluateThresholds(due, snapshot, table.names, table).find(
    (result) => result.actual !== null && !result.pass,
  );
  return failed === undefined
    ? undefined
    : { threshold: failed.threshold, atMs: snapshot.elapsedMs };
}

/**
 * A live snapshot's judge for the main process, which sees the whole run's merged snapshots (or a
 * `--segment` process's share): calls `onAbort` once, at the first failure; undefined when no
 * threshold has `abort_on_fail`. `tableOf` gives the names and tags of a snapshot's samples.
 */
export function watchAbortThresholds(
  specs: readonly ThresholdSpec[],
  tableOf: (snapshot: ShardSnapshot) => SampleTable,
  onAbort: (abort: ThresholdAbort) => void,
): ((snapshot: ShardSnapshot) => void) | undefined {
  if (!specs.some((spec) => spec.abortOnFail !== undefined)) return undefined;
  let done = false;
  return (snapshot) => {
    if (done) return;
    const abort = abortingThreshold(specs, snapshot, tableOf(snapshot));
    if (abort === undefined) return;
    done = true;
    onAbort(abort);
  };
}
