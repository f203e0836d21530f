/**
 * The one path from figures to reports, shared by `run` and `merge` so both print the same for
 * the same data: a run becomes a RawResult (what `--raw` writes), and a RawResult — one run's,
 * or several segments' merged — becomes the RunReport every renderer reads.
 */
import type { Loaded } from '../../dsl/load-plan.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { summarize } from '../../runtime/metrics/summarize.js';
import {
  planFingerprint,
  RAW_FORMAT,
  RAW_VERSION,
  type RawResult,
} from '../../runtime/raw-result.js';
import { evaluateThresholds } from '../../runtime/thresholds/evaluate.js';
import { describeRate } from '../render/plan-view.js';
import type { Redactor } from '../render/redact.js';
import type { RunReport } from '../render/run-report.js';

/** A finished (or interrupted) run of this process as a raw result. */
export function toRawResult(
  loaded: Loaded,
  snapshot: ShardSnapshot,
  fatal: string | undefined,
  redactor: Redactor,
): RawResult {
  const { plan } = loaded;
  return {
    format: RAW_FORMAT,
    version: RAW_VERSION,
    fingerprint: planFingerprint(plan),
    segment: plan.segment,
    endpointNames: snapshot.endpointNames ?? plan.graph.endpoints.map((e) => e.name),
    thresholds: plan.thresholds,
    meta: { target: plan.target, concurrency: plan.concurrency, load: describeRate(plan.rate) },
    config: redactTree(loaded.raw, [], redactor) as Record<string, unknown>,
    snapshot,
    fatal,
  };
}

/** Summarizes, evaluates the thresholds (undefined when none are defined) and assembles. */
export function reportFromRaw(raw: RawResult): RunReport {
  const result = summarize(raw.snapshot, raw.endpointNames);
  const thresholds = evaluateThresholds(raw.thresholds, raw.snapshot, raw.endpointNames);
  const passed = thresholds.filter((t) => t.pass).length;
  return {
    result,
    thresholds:
      raw.thresholds.length === 0
        ? undefined
        : {
            total: thresholds.length,
            passed,
            failed: thresholds.length - passed,
            results: thresholds,
          },
    meta: raw.meta,
    config: raw.config,
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
