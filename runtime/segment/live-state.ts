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

/** The live state of several segments together: counts add up, and so do their rate shares. */
export function sumLiveStates(states: readonly LiveState[]): LiveState {
  const rates = states.flatMap((s) => (s.targetRate === undefined ? [] : [s.targetRate]));
  return {
    workers: states.reduce((n, s) => n + s.workers, 0),
    busy: states.reduce((n, s) => n + s.busy, 0),
    inFlight: states.reduce((n, s) => n + s.inFlight, 0),
    targetRate: rates.length === 0 ? undefined : rates.reduce((a, b) => a + b, 0),
  };
}
