/**
 * A configuration's thresholds parsed with its custom metrics: the schema checks each item with
 * the built-in metrics only (threshold-schema.ts), since an item cannot see `metrics:`; here every
 * expression is parsed with the declarations, so `cart_total:p95 < 10` reads as a trend's
 * percentile and a misspelt `cart_totl` gets a did-you-mean over built-in and declared names.
 * Refinements report the failures (threshold-rules.ts), compile keeps the specs.
 */
import type { GrammarError } from '../grammar/grammar-error.js';
import { parseThreshold, type DeclaredMetrics } from '../grammar/threshold.js';
import { customDeclaration } from '../plan/metrics.js';
import type { ThresholdSpec } from '../plan/threshold-spec.js';
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
