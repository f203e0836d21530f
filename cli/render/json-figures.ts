/**
 * The figure families' part of the JSON result (runtime/metrics/figure-results.ts), a naming and rounding
 * pass over the summarized figures: a trend as a JsonLatency (ms, 3 decimals) or null while it had
 * no sample, a counter as its count. Ungrouped figures are always there (null without data);
 * groups (`sse`, `stream`) only when the run had them, each with all of its figures.
 */
import {
  hasGroup,
  resultOf,
  type EndpointFigureResults,
  type FigureResult,
  type RateResult,
  type RunFigureResults,
} from '../../runtime/metrics/figure-results.js';
import type { LatencySummary } from '../../runtime/metrics/run-result.js';
import { FIGURES, groupMembers, shownIn, type Figure } from '../../model/metrics/metric-figures.js';
import { latency, round3, type JsonLatency } from './json-latency.js';

/** A rate as JSON: the share of true samples (3 decimals; null of none), true ones, all. */
export interface JsonRate {
  readonly rate: number | null;
  readonly count: number;
  readonly total: number;
}

/** A figure's JSON: a summary rounded (null without one), a count as it is, a rate. */
type JsonFigure<V> = [V] extends [number]
  ? number
  : [V] extends [RateResult]
    ? JsonRate
    : JsonLatency | null;

/** The ungrouped figures of results `R` as JSON: always there, null without data. */
type JsonUngrouped<R> = {
  readonly [
    K in keyof R as NonNullable<R[K]> extends LatencySummary | number ? K : never
  ]-?: JsonFigure<NonNullable<R[K]>> | null;
};

/** The groups of results `R` as JSON: there when the run had them. */
type JsonGroups<R> = {
  readonly [K in keyof R as NonNullable<R[K]> extends LatencySummary | number ? never : K]?: {
    readonly [M in keyof NonNullable<R[K]>]: JsonFigure<NonNullable<R[K]>[M]>;
  };
};

/** The JSON of figure results `R`: ungrouped ones required (null without data), groups optional. */
type JsonFigures<R> = JsonUngrouped<R> & JsonGroups<R>;

/** The run's figures as JSON. */
export type JsonRunFigures = JsonFigures<RunFigureResults>;

/** An endpoint's figures as JSON. */
export type JsonEndpointFigures = JsonFigures<EndpointFigureResults>;

/** One figure's JSON value. */
type JsonFigureValue = JsonLatency | JsonRate | number | null;

/** A summarized figure as JSON. */
function jsonValue(figure: Figure, value: FigureResult | undefined): JsonFigureValue {
  if (typeof value === 'number') return value;
  if (figure.shape === 'trend') return latency(value as LatencySummary | undefined);
  if (value === undefined) return null;
  const { rate, count, total } = value as RateResult;
  return { rate: round3(rate), count, total };
}

/**
 * The ungrouped figures of a run's or an endpoint's result as JSON, in registry order; null where
 * a figure had no data.
 */
export function ungroupedJson(
  result: RunFigureResults,
  scope: 'run',
): JsonUngrouped<RunFigureResults>;
export function ungroupedJson(
  result: EndpointFigureResults,
  scope: 'endpoint',
): JsonUngrouped<EndpointFigureResults>;
export function ungroupedJson(
  result: RunFigureResults | EndpointFigureResults,
  scope: 'run' | 'endpoint',
): Record<string, JsonFigureValue> {
  const out: Record<string, JsonFigureValue> = {};
  for (const f of FIGURES)
    if (shownIn(f, scope) && f.group === undefined) out[f.key] = jsonValue(f, resultOf(result, f));
  return out;
}

/** The groups of a run's or an endpoint's result as JSON, in registry order; absent ones left out. */
export function groupsJson(result: RunFigureResults, scope: 'run'): JsonGroups<RunFigureResults>;
export function groupsJson(
  result: EndpointFigureResults,
  scope: 'endpoint',
): JsonGroups<EndpointFigureResults>;
export function groupsJson(
  result: RunFigureResults | EndpointFigureResults,
  scope: 'run' | 'endpoint',
): Record<string, Record<string, JsonFigureValue>> {
  const out: Record<string, Record<string, JsonFigureValue>> = {};
  for (const f of FIGURES) {
    if (!shownIn(f, scope) || f.group === undefined || Object.hasOwn(out, f.group)) continue;
    if (!hasGroup(result, f.group)) continue;
    out[f.group] = Object.fromEntries(
      groupMembers(f.group).map((m) => [m.key, jsonValue(m, resultOf(result, m))]),
    );
  }
  return out;
}
