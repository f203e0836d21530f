/**
 * The baseline of a run (`--baseline FILE`, `baseline:`; docs/reports.md, Baselines): an earlier
 * run's result that relative thresholds (`http_req_duration:p95 < baseline * 1.10`) read and the
 * HTML report draws beside the run's own charts. It is read while the configuration is validated:
 * each relative threshold's limit becomes a number (the baseline's figure × factor + offset)
 * before anything is sent, so the evaluator, abort_on_fail and the live outputs judge it as any
 * other threshold, and the reports show the baseline's figure beside the actual.
 *
 * A raw result (`--raw`) carries the whole snapshot: the evaluator measures any threshold on it,
 * exactly as on the run. A JSON result carries summaries only: it serves the figures `compare`
 * reads (relative-threshold.ts, READABLE), and any other threshold names the file and asks for a
 * raw one. A baseline sets the gate, so its figures are bounded (a 1e308 ms p95 would pass
 * anything) and the reports name where it came from: its file and when its run began.
 */
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import type { Loaded } from '../../dsl/load-plan.js';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import type { RawResult } from '../../runtime/raw-result.js';
import type { BaselineOverlay } from '../render/run-report.js';
import { evaluateThresholds } from '../../runtime/thresholds/evaluate.js';
import { tagTableOf } from '../run-report-builder.js';
import { figureKey } from './comparison.js';
import { figuresOf } from './figures.js';
import { READABLE, relativeLimit, thresholdFigure } from './relative-threshold.js';
import { readResultFile, type ResultFigures } from './result-file.js';

/** A loaded configuration with its relative thresholds' limits set, and what to overlay. */
export interface WithBaseline {
  readonly loaded: Loaded;
  /** Undefined when the configuration names no baseline. */
  readonly overlay: BaselineOverlay | undefined;
}

/**
 * Reads the baseline the plan names, if any, and sets each relative threshold's limit; throws
 * ConfigError naming the file (and the threshold) when it is not a result or lacks a figure.
 */
export function applyBaseline(loaded: Loaded, cwd: string): WithBaseline {
  const file = loaded.plan.baseline;
  if (file === undefined) return { loaded, overlay: undefined };
  const { figures, raw } = readResultFile(cwd, file);
  const issues: ConfigIssue[] = [];
  const thresholds = loaded.plan.thresholds.map((spec): ThresholdSpec => {
    if (spec.relative === undefined) return spec;
    const measured = bounded(raw === undefined ? fromFigures(spec, figures) : fromRaw(spec, raw));
    if (typeof measured === 'number')
      return {
        ...spec,
        expected: relativeLimit(spec.relative, measured),
        relative: { ...spec.relative, baseline: measured },
      };
    issues.push({
      code: 'invalid_value',
      source: { kind: 'file', file },
      path: [],
      expected: measured.expected,
      actual: `${JSON.stringify(spec.expression)}: ${measured.actual}`,
    });
    return spec;
  });
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    loaded: { ...loaded, plan: { ...loaded.plan, thresholds } },
    overlay: {
      file,
      started_at: figures.started_at,
      series: figures.series,
      latency_distribution: figures.latency_distribution,
    },
  };
}

/**
 * A figure a limit may be set from: finite and not negative (the JSON result's fields are bounded
 * where the file is read, result-file.ts; this holds what a raw one's samples give as well).
 */
function bounded(measured: number | Missing): number | Missing {
  if (typeof measured !== 'number' || (Number.isFinite(measured) && measured >= 0)) return measured;
  return { expected: 'a finite figure ≥ 0 in the baseline', actual: String(measured) };
}

/** Why a figure could not be read from the baseline. */
interface Missing {
  readonly expected: string;
  readonly actual: string;
}

/** The threshold's figure in a raw baseline, measured by the run's own evaluator. */
function fromRaw(spec: ThresholdSpec, raw: RawResult): number | Missing {
  const [result] = evaluateThresholds([spec], raw.snapshot, raw.endpointNames, tagTableOf(raw));
  return (
    result?.actual ?? {
      expected: 'a baseline run that measured what the threshold reads',
      actual: 'no data in the baseline',
    }
  );
}

/** The threshold's figure in a JSON baseline: one of those compare reads. */
function fromFigures(spec: ThresholdSpec, figures: ResultFigures): number | Missing {
  const figure = thresholdFigure(spec);
  if (figure === undefined)
    return {
      expected: `a raw result (--raw) for this threshold; a JSON result gives ${READABLE}`,
      actual: 'a JSON result',
    };
  const key = figureKey(figure.scope, figure.name);
  const found = figuresOf(figures, { errors: [], statuses: [] }).find(
    (f) => figureKey(f.scope, f.name) === key,
  );
  return (
    found?.value ?? {
      expected: `a baseline run with the figure "${figure.name}" of ${figure.scope}`,
      actual: 'no such figure in the baseline',
    }
  );
}
