/** Endpoints, flows and the weighted pick table that workers walk (spec §1 rule 8). */
import type { EndpointPlan, ThinkRange } from './endpoint-plan.js';

/** A weighted, ordered sequence of endpoints run as one iteration. */
export interface FlowPlan {
  readonly name: string;
  readonly weight: number;
  /** Endpoint indexes, in order. */
  readonly steps: readonly number[];
  /** Pause between steps, for a step whose endpoint has no think of its own. */
  readonly think: ThinkRange | undefined;
}

/** What one permit runs. */
export type PickItem =
  | { readonly kind: 'endpoint'; readonly index: number }
  | { readonly kind: 'flow'; readonly index: number };

/**
 * Cumulative weight table: item i is chosen when a random integer r in [0, total) satisfies
 * cumulative[i-1] <= r < cumulative[i] (cumulative[-1] = 0).
 */
export interface PickTable {
  readonly items: readonly PickItem[];
  readonly cumulative: readonly number[];
  readonly total: number;
}

/** The compiled scenario. */
export interface ScenarioGraph {
  readonly endpoints: readonly EndpointPlan[];
  readonly flows: readonly FlowPlan[];
  /** Endpoint indexes run once per worker, in order, before weighted traffic. */
  readonly setup: readonly number[];
  readonly picks: PickTable;
}
