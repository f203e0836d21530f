/**
 * What a segment is doing at this instant, beside its cumulative snapshot: for live views only
 * (the dashboard's busy-workers and current-vs-target gauges). It is read from the workers and
 * the pacer when a snapshot is taken, so the request path pays nothing for it.
 */

/** The instantaneous state of the running workers and pacing. */
export interface LiveState {
  /** Workers (virtual users) running. */
  readonly workers: number;
  /** Workers running an iteration (or their setup) instead of waiting for a permit. */
  readonly busy: number;
  /** HTTP requests sent and not yet answered or failed. */
  readonly inFlight: number;
  /** The rate the pacer dispatches at now, permits/s; undefined in the closed model. */
  readonly targetRate: number | undefined;
}
