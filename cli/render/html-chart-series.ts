/**
 * The series the HTML report's charts draw besides the JSON result (html-charts-script.ts reads
 * them from the page's `#barrage-series` block): not in the JSON result, whose shape stays.
 */
import type { RunResult } from '../../runtime/metrics/run-result.js';

/** Endpoints drawn over time: the most requested, so that the lines stay readable. */
export const MAX_CHARTED_ENDPOINTS = 8;

/** The endpoints with requests by second, the most requested first, MAX_CHARTED_ENDPOINTS. */
export function chartedEndpoints(r: RunResult): RunResult['endpoints'] {
  return r.endpoints
    .filter((e) => e.seconds !== undefined)
    .sort((a, b) => b.requests - a.requests)
    .slice(0, MAX_CHARTED_ENDPOINTS);
}

/**
 * What the charts draw besides the JSON result (the `#barrage-series` block): the active virtual
 * users of each second, when sampled; the most requested endpoints' requests, failures and mean
 * latency (ms) of each second they had requests in; the percentile curves of the trends the
 * registry marks `distribution` (LLM TTFT and ITL), by metric.
 */
export function chartSeries(r: RunResult): Record<string, unknown> {
  const endpoints = chartedEndpoints(r).map((e) => ({
    name: e.name,
    seconds: (e.seconds ?? []).map((s) => ({
      second: s.second,
      requests: s.requests,
      failures: s.failures,
      mean_ms: s.latencyUs / s.requests / 1000,
    })),
  }));
  return {
    ...(r.vus_series === undefined ? {} : { vus: r.vus_series }),
    ...(endpoints.length === 0 ? {} : { endpoints }),
    ...(r.figure_distributions === undefined ? {} : { distributions: r.figure_distributions }),
  };
}
