/** RunReport: everything the reports show, built once after a run (or a merge). */
import type { HttpDebugCounts } from '../../runtime/raw-result.js';
import type { RunResult } from '../../runtime/metrics/run-result.js';
import type { ThresholdAbort } from '../../runtime/thresholds/abort-on-fail.js';
import type { JsonResult } from './json-report.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';

/** Thresholds with their totals (spec §2.7 `thresholds`). */
export interface ThresholdSummary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly results: readonly ThresholdResult[];
  /** The `abort_on_fail` threshold that stopped the run, and when; absent when none did. */
  readonly aborted?: ThresholdAbort;
}

/** What the text, JSON, HTML, JUnit and Markdown reports render. */
export interface RunReport {
  readonly result: RunResult;
  /** Undefined when no thresholds are defined. */
  readonly thresholds: ThresholdSummary | undefined;
  /** What was run, for headings: target, workers, rate description. */
  readonly meta: {
    readonly target: string | undefined;
    readonly concurrency: number;
    readonly load: string;
  };
  /** The effective configuration, secrets already redacted (HTML shows it). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The baseline run the HTML report draws beside this one (`--baseline`); absent without one. */
  readonly baseline?: BaselineOverlay;
  /** Lines of the HTTP debug log written and dropped; absent when it was off. */
  readonly httpDebug?: HttpDebugCounts;
}

/** What the HTML report draws of a baseline run: its per-second series and latency curve. */
export type BaselineOverlay = Pick<JsonResult, 'series' | 'latency_distribution'> & {
  /** The file as the user named it. */
  readonly file: string;
  /** When the baseline run began (its `started_at`); undefined when the file does not say. */
  readonly started_at: string | undefined;
};
