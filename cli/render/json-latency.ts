/**
 * Numbers as the JSON result writes them: milliseconds rounded to 3 decimals, a latency summary
 * as an object of them, null where there is no value.
 */
import type { LatencySummary } from '../../runtime/metrics/run-result.js';

/** A latency summary as JSON: every field in ms, 3 decimals. */
export interface JsonLatency {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
}

/** `value` rounded to 3 decimals; null when there is no (finite) value. */
export function round3(value: number | undefined | null): number | null {
  if (value === undefined || value === null || !Number.isFinite(value)) return null;
  return Math.round(value * 1000) / 1000;
}

/** A latency summary as JSON; null when there is none. */
export function latency(summary: LatencySummary | undefined): JsonLatency | null {
  if (summary === undefined) return null;
  const r = (v: number): number => round3(v) ?? 0;
  return {
    min: r(summary.min),
    max: r(summary.max),
    mean: r(summary.mean),
    p50: r(summary.p50),
    p90: r(summary.p90),
    p95: r(summary.p95),
    p99: r(summary.p99),
  };
}
