/**
 * Custom metrics (docs/configuration.md, Custom metrics): the top-level `metrics:` declares them,
 * an endpoint's `metrics:` feeds a declared one from its response through an extractor.
 *
 *   metrics:
 *     cart_total: { type: trend, unit: none, description: Items in the cart }
 *   endpoints:
 *     - url: /cart
 *       metrics: { cart_total: $.items.length }
 *
 * A TypeScript scenario's `new Trend('name')` at its top level arrives here as the same key, from
 * its options (dsl/script/options-entry.ts). Names follow k6's rule and may not be a built-in
 * metric's; the endpoint's names must be declared (custom-metric-rules.ts).
 */
import * as z from 'zod';
import {
  CUSTOM_METRIC_NAME,
  isBuiltinMetric,
  METRIC_KINDS,
  METRIC_UNITS,
  type CustomMetric,
} from '../../model/metrics/metric-registry.js';
import { extractorSchema } from './extractor-schema.js';

const NAME =
  'a metric name: a letter or _, then up to 127 letters, digits or _ (not a built-in metric such as http_req_duration)';

/** A custom metric's name, never a built-in one's. */
const metricName = z
  .string()
  .regex(CUSTOM_METRIC_NAME, { error: NAME })
  .refine((name) => !isBuiltinMetric(name), { error: NAME });

/** One declaration. */
const declaration = z
  .strictObject(
    {
      type: z
        .enum(METRIC_KINDS, {
          error: `one of ${METRIC_KINDS.join(', ')} (how the samples are summarized)`,
        })
        .describe(
          'trend: percentiles; counter: a sum; rate: the share of true; gauge: the last value',
        ),
      unit: z
        .enum(METRIC_UNITS, {
          error: `one of ${METRIC_UNITS.join(', ')}`,
        })
        .default('none')
        .describe('How reports print the values; default none'),
      description: z.string({ error: 'a text (what the metric measures)' }).default(''),
    },
    { error: 'a mapping { type: trend|counter|rate|gauge, unit, description }' },
  )
  .transform((d): CustomMetric => ({
    kind: d.type,
    unit: d.unit,
    description: d.description,
  }));

/** The top-level `metrics:`: custom metrics by name. */
export const metricsSchema = z
  .record(metricName, declaration, {
    error: (issue) =>
      issue.code === 'invalid_key' ? NAME : 'a mapping of metric names to declarations',
  })
  .default({})
  .describe('Custom metrics, by name: { type, unit, description } (docs/configuration.md)');

/** An endpoint's `metrics:`: a declared metric's name → the extractor whose value it adds. */
export function endpointMetricsMap() {
  return z.record(metricName, z.lazy(extractorSchema), {
    error: (issue) =>
      issue.code === 'invalid_key' ? NAME : 'a mapping of declared metric names to extractors',
  });
}
