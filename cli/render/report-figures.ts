/**
 * How figures read in the HTML, Markdown and JUnit reports: milliseconds with two decimals (as in
 * the terminal report), counts with thousands separators, shares as percentages, and a threshold's
 * actual and expected values compact but exact enough for a rate such as 0.001:
 *
 *   formatValue(v) = v rounded to 3 decimals        when |v| ≥ 1 or v = 0
 *                  = v to 3 significant digits       when 0 < |v| < 1   (0.000123 stays 0.000123)
 *
 * Also the orderings the reports share: status codes ascending, error kinds most frequent first.
 */
import type { RunResult } from '../../runtime/metrics/run-result.js';
import type { ThresholdAbort } from '../../runtime/thresholds/abort-on-fail.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';
import type { BaselineOverlay, RunReport } from './run-report.js';

// ICU's first use in a process costs about 15 ms (its data), and every terminal report prints a
// count ("Virtual users: 1 allocated"): a whole count is grouped by its digits instead, as en-US
// does (12,345); Intl.NumberFormat, built on first use, only for any other number.
let count: Intl.NumberFormat | undefined;
const THOUSANDS = /\B(?=(\d{3})+$)/g;

/** Milliseconds with two decimals; `n/a` when nothing was measured. */
export function formatMs(value: number | null | undefined): string {
  return value === undefined || value === null ? 'n/a' : value.toFixed(2);
}

/** A count with thousands separators: 12,345. */
export function formatCount(value: number): string {
  if (Number.isSafeInteger(value)) return String(value).replace(THOUSANDS, ',');
  count ??= new Intl.NumberFormat('en-US');
  return count.format(value);
}

/** `part` as a share of `whole` with one decimal: 12.5%; `n/a` when whole is 0. */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(1)}%`;
}

/** A measured or expected value, compact (formula above). */
export function formatValue(value: number): string {
  if (value === 0 || Math.abs(value) >= 1) return String(Math.round(value * 1000) / 1000);
  return String(Number(value.toPrecision(3)));
}

/** A threshold's measured value, or `no data` when its metric got none. */
export function thresholdActual(result: ThresholdResult): string {
  return result.actual === null ? 'no data' : formatValue(result.actual);
}

/** A relative threshold's baseline figure; `—` for a threshold with a fixed limit. */
export function thresholdBaseline(result: ThresholdResult): string {
  return result.baseline === undefined ? '—' : formatValue(result.baseline);
}

/**
 * Where a run's baseline came from, for the reports: its file and when its run began
 * (`base.json, a run started 2026-05-01T10:00:00.000Z`).
 */
export function baselineSource(baseline: Pick<BaselineOverlay, 'file' | 'started_at'>): string {
  return baseline.started_at === undefined
    ? `${baseline.file} (it does not say when its run started)`
    : `${baseline.file}, a run started ${baseline.started_at}`;
}

/** Whether any threshold's limit came from a baseline (reports then add its column). */
export function anyBaseline(results: readonly ThresholdResult[]): boolean {
  return results.some((r) => r.baseline !== undefined);
}

/** A threshold's condition: `< 300`. */
export function thresholdExpected(result: ThresholdResult): string {
  return `${result.operator} ${formatValue(result.expected)}`;
}

/** The threshold that stopped the run, and when: `http_req_failed:rate < 0.1 failed at 1.50 s`. */
export function abortText(abort: ThresholdAbort): string {
  return `${abort.threshold} failed at ${abortSeconds(abort)}`;
}

/** When the threshold stopped the run, in seconds since dispatch began: `1.50 s`. */
export function abortSeconds(abort: ThresholdAbort): string {
  return `${(abort.atMs / 1000).toFixed(2)} s`;
}

// The orderings below compare numbers and ASCII names directly, not with localeCompare, whose
// first use in a process costs 7-9 ms (ICU's collator), paid by a report of two status codes.

/** Status codes in ascending order with their counts. */
export function sortedStatusCodes(result: RunResult): [string, number][] {
  return Object.entries(result.status_codes).sort(([a], [b]) => Number(a) - Number(b));
}

/** Error kinds, most frequent first (ties by name), with their counts. */
export function sortedErrors(result: RunResult): [string, number][] {
  return Object.entries(result.errors).sort(([a, x], [b, y]) => y - x || byName(a, b));
}

/** Code-unit order: error kinds are ASCII (snake_case), where it is the alphabetical order. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The run's outcome in one line: passed, failed (how many thresholds), or no thresholds. */
export interface Verdict {
  /** True when every threshold passed; undefined when none are defined. */
  readonly passed: boolean | undefined;
  readonly text: string;
}

/** The outcome of the report's thresholds. */
export function verdictOf(report: RunReport): Verdict {
  const t = report.thresholds;
  if (t === undefined) return { passed: undefined, text: 'no thresholds' };
  if (t.failed === 0)
    return { passed: true, text: `passed: ${t.passed} of ${t.total} thresholds met` };
  return { passed: false, text: `failed: ${t.failed} of ${t.total} thresholds not met` };
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Bytes in binary units, one decimal above 1 KiB: 512 B, 1.5 KiB, 12.0 MiB. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}
