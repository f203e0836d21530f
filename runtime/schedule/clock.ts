/**
 * What the runtime takes from outside (STYLE.md rule 2): a clock and random sources are passed
 * in, so pacing and picks are testable without real time and reproducible with a seed.
 */
import { performance } from 'node:perf_hooks';

/** Monotonic and wall-clock time. */
export interface Clock {
  /** Monotonic microseconds (fractional allowed). */
  nowUs(): number;
  /** Wall-clock epoch milliseconds. */
  wallMs(): number;
}

/** The real clock. */
export const systemClock: Clock = {
  nowUs: () => performance.now() * 1000,
  wallMs: () => Date.now(),
};
