/** What one segment (a worker thread, or the only one) runs: plain data, it crosses threads. */
import type { Plan } from '../../dsl/plan/plan.js';
import type { FeederSlice } from '../feeder/feeder.js';

/** One segment's exact share of the run. */
export interface SegmentSpec {
  readonly plan: Plan;
  /** 0-based position among this process's segments (threads). */
  readonly thread: number;
  readonly threads: number;
  /** Fraction of the plan's rate this segment paces (1/(processes × threads)). */
  readonly rateShare: number;
  /** Stagger of this segment's permits, in [0, 1) of its own permit period. */
  readonly phase: number;
  readonly workers: number;
  /** Id of this segment's first worker (ids are unique across the run). */
  readonly firstWorkerId: number;
  readonly requests: number | undefined;
  /** This segment's share of the open-model schedule's permits (undefined: no end, or closed). */
  readonly permits: number | undefined;
  /** This segment's rows of the feeder table (plan.feeder.records). */
  readonly records: FeederSlice;
}
