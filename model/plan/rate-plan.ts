/** How permits are paced over time (DESIGN.md §3, spec §1.10). Rates are permits per second. */

/** A load pattern with durations in milliseconds. */
export type PatternPlan =
  | {
      readonly type: 'ramp';
      readonly from: number;
      readonly to: number;
      readonly durationMs: number;
    }
  | {
      readonly type: 'step';
      readonly steps: readonly { readonly rate: number; readonly durationMs: number }[];
    }
  | {
      readonly type: 'spike';
      readonly base: number;
      readonly peak: number;
      readonly durationMs: number;
      readonly atMs: number;
      readonly riseMs: number;
      readonly holdMs: number;
      readonly fallMs: number;
    }
  /** ramping-arrival-rate: from `start`, each stage goes linearly to its target. */
  | {
      readonly type: 'stages';
      readonly start: number;
      readonly stages: readonly { readonly durationMs: number; readonly target: number }[];
    };

/** Unlimited (closed model), a constant rate, or a pattern. */
export type RatePlan =
  | { readonly kind: 'unlimited' }
  | { readonly kind: 'constant'; readonly rate: number }
  | { readonly kind: 'pattern'; readonly pattern: PatternPlan };
