/**
 * The figure families' part of a RunResult (model/metrics/metric-figures.ts), typed from the
 * registry's rows: each metric at its `result` key, a trend's a LatencySummary (ms), a counter's a
 * number; a grouped one (`sse.events`) in its group's object, which is there when any of the
 * group's figures is. The run's result holds every figure; an endpoint's, the groups of the
 * endpoint families and the trends marked `perEndpoint`.
 */
import type { BUILTIN_METRICS } from '../../model/metrics/metric-registry.js';
import type { Figure, MetricsOf } from '../../model/metrics/metric-figures.js';
import type { FigureFamily, FigureSpec } from '../../model/metrics/metric-registry.js';
import type { LatencySummary } from './run-result.js';

type Rows = typeof BUILTIN_METRICS;
type Metric = MetricsOf<FigureFamily>;
type SpecOf<K extends Metric> = Rows[K] extends { readonly figure: infer S extends FigureSpec }
  ? S
  : never;
/** The result of one metric: a trend's summary (undefined while it has no sample), a count, a rate's. */
type ValueOf<K extends Metric> = Rows[K]['kind'] extends 'trend'
  ? LatencySummary | undefined
  : Rows[K]['kind'] extends 'rate'
    ? RateResult
    : number;
/** Metrics that are not core counters (those are placed by hand in RunResult). */
type Placed = { [K in Metric]: SpecOf<K> extends { readonly core: true } ? never : K }[Metric];
/** Metrics of the endpoint families. */
type OfEndpoints = MetricsOf<'endpoint-trend' | 'endpoint-counter' | 'endpoint-rate'>;

/** The ungrouped figures of `M`, at their result keys (absent while they have no sample). */
type Ungrouped<M extends Metric> = {
  readonly [
    K in M as SpecOf<K>['result'] extends `${string}.${string}` ? never : SpecOf<K>['result']
  ]?: Exclude<ValueOf<K>, undefined>;
};

/** The group names of `M`'s grouped figures. */
type GroupOf<M extends Metric> = {
  [K in M]: SpecOf<K>['result'] extends `${infer G}.${string}` ? G : never;
}[M];

/** The groups of `M`, each an object of its figures by key. */
type Grouped<M extends Metric> = {
  readonly [G in GroupOf<M>]?: {
    readonly [K in M as SpecOf<K>['result'] extends `${G}.${infer X}` ? X : never]: ValueOf<K>;
  };
};

/** A rate's result: the share of true samples (undefined of none), how many were true, of how many. */
export interface RateResult {
  readonly rate: number | undefined;
  readonly count: number;
  readonly total: number;
}

/** Endpoint trends marked to show per endpoint. */
type PerEndpoint = {
  [K in OfEndpoints]: SpecOf<K> extends { readonly perEndpoint: true } ? K : never;
}[OfEndpoints];

/** The figure results of the run. */
export type RunFigureResults = Ungrouped<Placed> & Grouped<Placed>;

/** The figure results of an endpoint. */
export type EndpointFigureResults = Ungrouped<PerEndpoint> & Grouped<OfEndpoints>;

/** A figure's result: a trend's summary, a count, a rate's. */
export type FigureResult = LatencySummary | number | RateResult;

/**
 * A figure's result in a run's or an endpoint's results: a trend's summary, a counter's count;
 * undefined where the result has none (its group absent, or no sample).
 */
export function resultOf(
  results: RunFigureResults | EndpointFigureResults,
  figure: Figure,
): FigureResult | undefined {
  const values = results as Readonly<Record<string, unknown>>;
  const holder =
    figure.group === undefined
      ? values
      : (values[figure.group] as Readonly<Record<string, unknown>> | undefined);
  return holder?.[figure.key] as FigureResult | undefined;
}

/** True when a run's or an endpoint's results hold `group`. */
export function hasGroup(
  results: RunFigureResults | EndpointFigureResults,
  group: string,
): boolean {
  return (results as Readonly<Record<string, unknown>>)[group] !== undefined;
}
