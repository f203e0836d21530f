/**
 * Thresholds as live series (docs/outputs.md, Thresholds), so a dashboard shows which hold while
 * the run goes: per threshold, tagged with its expression, `threshold_value` is what it measures
 * on the run so far and `threshold_passed` 1 when it holds, 0 when it fails. A threshold whose
 * metric has no data yet has no series. The exit code is judged on the final figures alone.
 */
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import type { SampleTable } from '../metrics/sample-select.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import { evaluateThresholds } from '../thresholds/evaluate.js';
import type { Series } from './metric-series.js';

/** The two gauges of every threshold with data. */
export function thresholdSeries(
  specs: readonly ThresholdSpec[],
  snapshot: ShardSnapshot,
  table: SampleTable,
): Series[] {
  if (specs.length === 0) return [];
  return evaluateThresholds(specs, snapshot, table.names, table).flatMap((result) => {
    if (result.actual === null) return [];
    const tags = { ...table.run, threshold: result.threshold };
    return [
      gauge(
        'threshold_value',
        'The value a threshold measures on the run so far',
        tags,
        result.actual,
      ),
      gauge(
        'threshold_passed',
        'A threshold on the run so far: 1 holds, 0 fails',
        tags,
        result.pass ? 1 : 0,
      ),
    ];
  });
}

function gauge(metric: string, description: string, tags: Series['tags'], value: number): Series {
  return {
    metric,
    kind: 'gauge',
    unit: 'none',
    description,
    tags,
    count: 0,
    trues: 0,
    value,
    min: value,
    max: value,
  };
}
