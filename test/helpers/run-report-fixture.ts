/**
 * Hand-built RunReport fixtures for the report tests. The defaults are the spec §2.8 example run
 * (1000 requests, 990 ok, 10 s), with no status codes, errors or extra endpoints so that the text
 * report is exactly the spec's block; each test overrides what it is about.
 */
import type { RunReport, ThresholdSummary } from '../../cli/render/run-report.js';
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';

/** The spec example's latency figures (ms). */
export const EXAMPLE_LATENCY: LatencySummary = {
  min: 1.23,
  max: 45.67,
  mean: 3.21,
  p50: 2.5,
  p90: 5,
  p95: 8.5,
  p99: 12,
};

/** A latency summary: the example's figures with some replaced. */
export function latencyFixture(overrides: Partial<LatencySummary> = {}): LatencySummary {
  return { ...EXAMPLE_LATENCY, ...overrides };
}

/** A RunResult: the spec example's run with some fields replaced. */
export function runResultFixture(overrides: Partial<RunResult> = {}): RunResult {
  return {
    total: 1000,
    successes: 990,
    failures: 10,
    iterations: 1000,
    duration_ms: 10_000,
    requests_per_sec: 99.98,
    latency_ms: EXAMPLE_LATENCY,
    intended_latency_ms: undefined,
    late: 0,
    dropped: 0,
    retries: 0,
    redirects: 0,
    bytes_received: 123_456,
    bytes_decoded: 0,
    bytes_sent: 7_890,
    status_codes: {},
    unsent: 0,
    unsent_errors: {},
    unsent_causes: {},
    iterations_failed: 0,
    iteration_errors: {},
    errors: {},
    endpoints: [
      {
        name: 'default',
        requests: 1000,
        failures: 10,
        latency_ms: EXAMPLE_LATENCY,
        status_codes: {},
        errors: {},
      },
    ],
    series: [],
    websocket: undefined,
    checks: undefined,
    auth: undefined,
    interrupted: false,
    started_at: '2026-01-02T03:04:05.000Z',
    latency_distribution: [],
    ...overrides,
  };
}

/** One threshold result; `actual: null` models a metric with no data. */
export function thresholdFixture(overrides: Partial<ThresholdResult> = {}): ThresholdResult {
  return {
    threshold: 'http_req_duration:p95 < 300',
    metric: 'http_req_duration',
    aggregate: 'p95',
    operator: '<',
    expected: 300,
    actual: 12.34,
    pass: true,
    ...overrides,
  };
}

/** The spec example's two thresholds: a passing latency gate and a failing error-rate gate. */
export const EXAMPLE_THRESHOLDS: readonly ThresholdResult[] = [
  thresholdFixture(),
  thresholdFixture({
    threshold: 'http_req_failed:rate < 0.01',
    metric: 'http_req_failed',
    aggregate: 'rate',
    expected: 0.01,
    actual: 0.05,
    pass: false,
  }),
];

/** A ThresholdSummary with its totals counted from the results. */
export function thresholdSummaryFixture(results: readonly ThresholdResult[]): ThresholdSummary {
  const passed = results.filter((r) => r.pass).length;
  return { total: results.length, passed, failed: results.length - passed, results };
}

/** A RunReport around `result`, with thresholds when `thresholds` is given. */
export function runReportFixture(
  result: RunResult = runResultFixture(),
  thresholds?: readonly ThresholdResult[],
): RunReport {
  return {
    result,
    thresholds: thresholds === undefined ? undefined : thresholdSummaryFixture(thresholds),
    meta: { target: 'http://127.0.0.1:8080', concurrency: 10, load: '10 workers, 10s' },
    config: {},
  };
}
