/** What one segment (a worker thread, or the only one) runs: plain data, it crosses threads. */
import type { Plan } from '../../model/plan/plan.js';
import type { FeederSlice } from '../feeder/feeder.js';

/** One segment's exact share of one scenario (plan.scenarios[scenario]). */
export interface ScenarioShare {
  readonly scenario: number;
  /** Virtual users it starts with (vus, pre_allocated_vus; ramping-vus: its most). */
  readonly workers: number;
  /** The most virtual users it may have (an arrival-rate pool grows up to it). */
  readonly maxWorkers: number;
  /** Id of its first worker (ids are unique across the run); ids run up to + maxWorkers. */
  readonly firstWorkerId: number;
  /** Fraction of the scenario's rate this segment paces (arrival-rate). */
  readonly rateShare: number;
  /** Stagger of this segment's permits, in [0, 1) of its own permit period. */
  readonly phase: number;
  /** Its share of a shared iteration count (shared-iterations, the top-level `requests`). */
  readonly iterations: number | undefined;
  /** Its share of an arrival-rate schedule's permits (undefined: no end). */
  readonly permits: number | undefined;
  /** Of the scenario's VUs ranked 0, 1, 2…, this segment runs ranks rankFirst + k·rankStride. */
  readonly rankFirst: number;
  readonly rankStride: number;
}

/** One segment's exact share of the run. */
export interface SegmentSpec {
  readonly plan: Plan;
  /** 0-based position among this process's segments (threads). */
  readonly thread: number;
  readonly threads: number;
  /** Fraction of the run this segment is (1/(processes × threads)): the retry budget's share. */
  readonly rateShare: number;
  readonly scenarios: readonly ScenarioShare[];
  /** This segment's rows of the feeder table (plan.feeder.records). */
  readonly records: FeederSlice;
}
