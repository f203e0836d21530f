/**
 * The zod shapes of a raw result's figures (raw-result-schema.ts): counts, encoded histograms,
 * and the fields the metric registry's figure families (model/metrics/metric-figures.ts) put in a
 * snapshot, an endpoint's and a second's.
 */
import * as z from 'zod';
import {
  FIGURES,
  SECOND_FIGURES,
  perEndpoint,
  type SecondField,
} from '../model/metrics/metric-figures.js';
import { encodedProblem } from '../runtime/metrics/histogram.js';

/** A whole number ≥ 0. */
export const count = z
  .number({ error: 'a count (a whole number ≥ 0)' })
  .int({ error: 'a count (a whole number ≥ 0)' })
  .min(0, { error: 'a count (a whole number ≥ 0)' })
  .max(Number.MAX_SAFE_INTEGER, { error: `a count of at most ${Number.MAX_SAFE_INTEGER}` });

/** What a histogram is expected to be; the problem found is what the file holds. */
const HISTOGRAM = "a compressed HDR histogram of barrage's layout";

/** An encoded HDR histogram of barrage's layout (runtime/metrics/histogram.ts). */
export const histogram = z.string({ error: HISTOGRAM }).superRefine((s, ctx) => {
  const problem = encodedProblem(s);
  if (problem !== undefined)
    ctx.addIssue({ code: 'custom', message: HISTOGRAM, input: s, params: { actual: problem } });
});

/** Counts by key. */
export const counts = z.record(z.string(), count, { error: 'counts by key' });

/**
 * The figure families' fields (model/metrics/metric-figures.ts) of an endpoint, or of the run:
 * each optional (absent until sampled, and in raw files written before it was measured).
 */
export function figureShape(scope: 'endpoint' | 'run') {
  const shape: Record<string, typeof histogram | typeof count | typeof rateCounts> = {};
  for (const f of FIGURES)
    if (f.index >= 0 && (scope === 'run' || perEndpoint(f.family)))
      shape[f.spec.field] =
        f.shape === 'trend' ? histogram : f.shape === 'counter' ? count : rateCounts;
  return Object.fromEntries(
    Object.entries(shape).map(([field, type]) => [field, type.exactOptional()]),
  ) as Record<string, z.ZodExactOptional<typeof histogram | typeof count | typeof rateCounts>>;
}

/** The figures kept second by second (FigureSpec.perSecond) of a second: each a count, optional. */
export function secondFigureShape() {
  return Object.fromEntries(
    SECOND_FIGURES.map((f) => [f.spec.perSecond!.field, count.exactOptional()]),
  ) as Record<SecondField, z.ZodExactOptional<typeof count>>;
}

/** A rate's counts: [trues, total], never more trues than samples. */
const rateCounts = z
  .tuple([count, count], { error: 'a rate [trues, total]' })
  .refine(([trues, total]) => trues <= total, { error: 'at most as many true samples as samples' })
  .readonly();
