/** Endpoints, flows and the weighted pick table that workers walk (spec §1 rule 8). */
import type { EndpointPlan, ThinkRange } from './endpoint-plan.js';
import type { StatusSet } from './status-set.js';
import type { Template } from './template.js';

/**
 * A declarative condition (docs/configuration.md, Loops and conditions) on the virtual user's
 * variables or on the flow's last response. A `value` is a template the variables fill; a
 * variable with no value, or a template that cannot be filled, makes the comparison false.
 */
export type Condition =
  | { readonly var: string; readonly op: 'equals' | 'not_equals'; readonly value: Template }
  | { readonly var: string; readonly op: 'matches'; readonly pattern: string }
  | { readonly var: string; readonly op: 'exists'; readonly exists: boolean }
  /** The last response's status is in the set (false when the flow has no response yet). */
  | { readonly status: StatusSet }
  /** A value exists at the path in the last response's JSON body (its first one), or not. */
  | {
      readonly json: string;
      readonly evaluatorPath: string;
      readonly op: 'exists';
      readonly exists: boolean;
    }
  | {
      readonly json: string;
      readonly evaluatorPath: string;
      readonly op: 'equals' | 'not_equals';
      readonly value: Template;
    }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition };

/**
 * A loop: `count` times, over the items of the JSON list a variable holds (each stored in `as`),
 * or while a condition holds (checked before each pass); at most `max` passes whichever it is.
 */
export interface LoopStep {
  readonly kind: 'loop';
  readonly count: number | undefined;
  readonly over: string | undefined;
  readonly as: string | undefined;
  readonly while: Condition | undefined;
  readonly max: number;
  readonly steps: readonly FlowStep[];
}

/** Steps run when the condition holds, others (possibly none) when it does not. */
export interface IfStep {
  readonly kind: 'if';
  readonly condition: Condition;
  readonly then: readonly FlowStep[];
  readonly else: readonly FlowStep[];
}

/** A flow's step: an endpoint index, a loop or a branch. */
export type FlowStep = number | LoopStep | IfStep;

/** A weighted, ordered sequence of endpoints run as one iteration. */
export interface FlowPlan {
  readonly name: string;
  readonly weight: number;
  /** Endpoint indexes, loops and branches, in order. */
  readonly steps: readonly FlowStep[];
  /** A condition reads the last response's JSON body, so every step's body is kept. */
  readonly readsBody: boolean;
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
