/** RunResult + ThresholdResults + what was run → the RunReport every renderer reads. */
import type { Loaded } from '../../dsl/load-plan.js';
import type { RunResult } from '../../runtime/run-result.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';
import { describeRate } from '../render/plan-view.js';
import type { Redactor } from '../render/redact.js';
import type { RunReport } from '../render/run-report.js';

/** Builds the report; the configuration shown in it is redacted. */
export function buildRunReport(
  loaded: Loaded,
  result: RunResult,
  thresholds: readonly ThresholdResult[],
  redactor: Redactor,
): RunReport {
  const passed = thresholds.filter((t) => t.pass).length;
  return {
    result,
    thresholds:
      loaded.plan.thresholds.length === 0
        ? undefined
        : {
            total: thresholds.length,
            passed,
            failed: thresholds.length - passed,
            results: thresholds,
          },
    meta: {
      target: loaded.plan.target,
      concurrency: loaded.plan.concurrency,
      load: describeRate(loaded.plan.rate),
    },
    config: redactTree(loaded.raw, [], redactor) as Record<string, unknown>,
  };
}

function redactTree(value: unknown, path: (string | number)[], redactor: Redactor): unknown {
  if (redactor.isSecret(path)) return redactor.value(path, value);
  if (Array.isArray(value)) return value.map((item, i) => redactTree(item, [...path, i], redactor));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactTree(v, [...path, k], redactor)]),
    );
  }
  return value;
}
