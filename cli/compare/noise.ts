/**
 * How `barrage compare` tells a change from run-to-run noise, judged from the two runs alone
 * (docs/reports.md, "Comparing runs"). Pure functions of the figures.
 *
 * A run's spread of a per-second quantity q (requests, p50, p95 or p99 of one second; the last
 * second, which may be partial, and seconds without a response left out) is its robust relative
 * standard deviation (the median absolute deviation, scaled to estimate σ of normal data, relative
 * to the median), and the run's figure, which pools its n seconds, is held to vary from run to run
 * by the standard error of their mean (what a bootstrap of the seconds estimates):
 *
 *   error(q) = 1.4826 · median(|q_i − median(q)|) / median(q) / √n
 *
 * A figure of the two runs moved outside the noise when
 *
 *   |new − base| > 3 · √(error_base² + error_new²) · base   and   |new − base| ≥ 5 % · base
 *
 * with the errors of the matching series: p50 uses p50's; p90, p95 and the mean (which the tail
 * moves) use p95's; p99 uses p99's; requests and requests/s use the per-second requests'. A run
 * with fewer than MIN_SECONDS such seconds has no error: its figures' changes are shown, not judged.
 *
 * Shares (failure rate, a check's pass rate, an error kind's share of requests) are proportions
 * of counted trials, whose noise is known from the counts (the two-proportion z-test): with
 * p = (x_base + x_new) / (n_base + n_new),
 *
 *   |p_new − p_base| > 3 · √(p (1 − p) (1/n_base + 1/n_new))   and   |p_new − p_base| ≥ 0.5 points
 */

/** Fewer full seconds than this give no spread. */
export const MIN_SECONDS = 3;
/** How many combined spreads (standard deviations) a change must exceed. */
export const NOISE_FACTOR = 3;
/** The smallest relative change flagged, whatever the spread. */
export const MIN_RELATIVE_CHANGE = 0.05;
/** The smallest change of a share flagged (0.5 percentage points). */
export const MIN_SHARE_CHANGE = 0.005;
/** Scales a median absolute deviation to estimate σ of normal data. */
const MAD_TO_SIGMA = 1.4826;

/** The median of `values` (not empty). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The relative standard error of a run's figure from its per-second `values` (formula above);
 * undefined with fewer than MIN_SECONDS of them.
 */
export function relativeError(values: readonly number[]): number | undefined {
  if (values.length < MIN_SECONDS) return undefined;
  const middle = median(values);
  if (middle === 0) return undefined;
  const mad = median(values.map((v) => Math.abs(v - middle)));
  return (MAD_TO_SIGMA * mad) / Math.abs(middle) / Math.sqrt(values.length);
}

/** The band a measured figure's change must leave; undefined when a spread is unknown. */
export function measuredNoise(
  base: number,
  errorBase: number | undefined,
  errorNew: number | undefined,
): number | undefined {
  if (errorBase === undefined || errorNew === undefined) return undefined;
  return NOISE_FACTOR * Math.hypot(errorBase, errorNew) * Math.abs(base);
}

/** True when a measured figure moved outside `noise` and by at least MIN_RELATIVE_CHANGE. */
export function measuredMoved(base: number, next: number, noise: number): boolean {
  const change = Math.abs(next - base);
  return change > noise && change >= MIN_RELATIVE_CHANGE * Math.abs(base);
}

/** Trials and successes of a share (x of n). */
export interface Share {
  readonly x: number;
  readonly n: number;
}

/** The band a share's change must leave (three standard errors); undefined without trials. */
export function shareNoise(base: Share, next: Share): number | undefined {
  if (base.n === 0 || next.n === 0) return undefined;
  const p = (base.x + next.x) / (base.n + next.n);
  return NOISE_FACTOR * Math.sqrt(p * (1 - p) * (1 / base.n + 1 / next.n));
}

/** True when a share moved outside `noise` and by at least MIN_SHARE_CHANGE. */
export function shareMoved(base: number, next: number, noise: number): boolean {
  const change = Math.abs(next - base);
  return change > noise && change >= MIN_SHARE_CHANGE;
}
