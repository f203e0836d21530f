/** The outcome of one threshold (spec §2.6), in the JSON result's field names. */
import type { ThresholdOperator } from '../../model/plan/threshold-spec.js';

/** One evaluated threshold. */
export interface ThresholdResult {
  /** The expression as written. */
  readonly threshold: string;
  readonly metric: string;
  readonly aggregate: string;
  readonly operator: ThresholdOperator;
  readonly expected: number;
  /** The measured value; null when the metric got no data (which fails: DESIGN.md §6). */
  readonly actual: number | null;
  readonly pass: boolean;
  /** A relative threshold's baseline figure (`expected` is the limit it gave). */
  readonly baseline?: number;
}
