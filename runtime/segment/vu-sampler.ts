/**
 * k6's `vus`: once a second, each scenario's virtual users running an iteration (not those a
 * ramping-vus gate holds, nor an arrival-rate pool's idle ones) are counted into its shard. A
 * count per second, not per change: shards add up second by second (merge-stats.ts), and the
 * request path pays nothing for it. Samples are taken in the middle of each second of the run,
 * each timer aimed anew, so that threads and processes sampling on their own clocks put theirs in
 * the same second, however late a timer fires.
 */
import type { ScenarioRun } from './scenario-run.js';

/** Where in each second of the run a sample is taken, µs. */
const MID_SECOND_US = 500_000;

/** Starts sampling the runs' active virtual users; returns its stop. */
export function startVuSampler(runs: readonly ScenarioRun[], now: () => number): () => void {
  let timer: NodeJS.Timeout | undefined;
  const aim = (): void => {
    const phase = ((now() % 1e6) + 1e6) % 1e6;
    const waitUs = (MID_SECOND_US - phase + 1e6) % 1e6 || 1e6;
    timer = setTimeout(sample, waitUs / 1000);
  };
  const sample = (): void => {
    const at = now();
    for (const run of runs) run.recorder.sampleVus(at, run.activeUsers());
    aim();
  };
  aim();
  return () => clearTimeout(timer);
}
