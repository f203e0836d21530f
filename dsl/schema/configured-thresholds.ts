/**
 * A configuration's thresholds parsed with its custom metrics: the schema checks each item with
 * the built-in metrics only (threshold-schema.ts), since an item cannot see `metrics:`; here every
 * expression is parsed with the declarations, so `cart_total:p95 < 10` reads as a trend's
 * percentile and a misspelt `cart_totl` gets a did-you-mean over built-in and declared names.
 * Refinements report the failures (threshold-rules.ts), compile keeps the specs.
 */
import type { GrammarError } from '../grammar/grammar-error.js';
import { parseThreshold, type DeclaredMetrics } from '../grammar/threshold.js';
import type { z } from 'zod';
import { customDeclaration, type CustomMetric } from '../../model/metrics/metric-registry.js';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { ok, type Result } from '../result.js';
import type { Config } from './config-schema.js';

/** The configuration's custom metrics as the threshold grammar reads them. */
export function declaredMetrics(config: Pick<Config, 'metrics'>): DeclaredMetrics {
  // fromEntries defines own properties: a metric named "__proto__" stays a plain key.
  return Object.fromEntries(
    Object.entries(config.metrics).map(([name, metric]) => [name, customDeclaration(metric)]),
  );
}

/** Each threshold item parsed, in order: its spec (with abort_on_fail's), or the grammar's error. */
export function configuredThresholds(
  config: Pick<Config, 'metrics' | 'thresholds'>,
): Result<ThresholdSpec, GrammarError>[] {
  const declared = declaredMetrics(config);
  return config.thresholds.map((item) => {
    const parsed = parseThreshold(item.expression, declared);
    if (!parsed.ok || item.abortOnFail === undefined) return parsed;
    return ok({ ...parsed.value, abortOnFail: item.abortOnFail });
  });
}

/**
 * The schema's own check of the thresholds with the declared metrics, for a configuration without
 * a scenario: it runs even when other keys failed (`when` in config-schema.ts), so every problem
 * is reported at once. `value` is what parsed so far: items and declarations that failed their
 * own schema are left out. A scenario's declarations arrive with its options, after a first
 * validation without them: there, threshold-rules.ts reports on the whole configuration.
 */
export function checkThresholds(value: unknown, ctx: z.core.$RefinementCtx<unknown>): void {
  if (!isRecord(value) || value.scenario !== undefined || !Array.isArray(value.thresholds)) return;
  const declared: Record<string, ReturnType<typeof customDeclaration>> = {};
  if (isRecord(value.metrics))
    for (const [name, metric] of Object.entries(value.metrics))
      if (isRecord(metric) && typeof metric.kind === 'string')
        declared[name] = customDeclaration(metric as unknown as CustomMetric);
  value.thresholds.forEach((item: unknown, i: number) => {
    if (!isRecord(item) || typeof item.expression !== 'string') return;
    const parsed = parseThreshold(item.expression, declared);
    if (parsed.ok) return;
    ctx.addIssue({
      code: 'custom',
      message: parsed.error.message,
      path: item.mapping === true ? ['thresholds', i, 'threshold'] : ['thresholds', i],
      input: item.expression,
      params: { code: 'invalid_threshold' },
    });
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
