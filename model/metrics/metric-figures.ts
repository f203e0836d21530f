/**
 * The figure families' metrics (metric-registry.ts, MetricFamily), read from the registry's rows:
 * each with its index among its kind's figures (the recorder keeps a figure's histogram or count
 * at that index), its group's figures (made together, so a group's fields appear together) and
 * the snapshot and result keys it lives at. Everything that stores, merges, summarizes, judges or
 * sends these metrics iterates these lists, in registry order, which is their order in every
 * snapshot and result.
 */
import {
  BUILTIN_METRICS,
  type BuiltinDeclaration,
  type BuiltinMetric,
  type FigureFamily,
  type FigureSpec,
} from './metric-registry.js';

type Rows = typeof BUILTIN_METRICS;

/** The built-in metrics of family `F`. */
export type MetricsOf<F> = {
  [K in BuiltinMetric]: Rows[K] extends { readonly family: F } ? K : never;
}[BuiltinMetric];

/** The snapshot fields of family `F`'s metrics that are not core counters (placed by hand). */
type FieldsOf<F extends FigureFamily> = {
  [K in MetricsOf<F>]: Rows[K] extends { readonly figure: infer S }
    ? S extends { readonly core: true }
      ? never
      : S extends { readonly field: infer X extends string }
        ? X
        : never
    : never;
}[MetricsOf<F>];

/** The per-second keys (`field` or `result`) of the figures kept second by second. */
type PerSecondKeysOf<Key extends 'field' | 'result'> = {
  [K in MetricsOf<FigureFamily>]: Rows[K] extends { readonly figure: infer S }
    ? S extends { readonly perSecond: { readonly [P in Key]: infer X extends string } }
      ? X
      : never
    : never;
}[MetricsOf<FigureFamily>];

/** A second's snapshot fields of the figures kept second by second (FigureSpec.perSecond). */
export type SecondField = PerSecondKeysOf<'field'>;
/** A JSON result series point's keys of the figures kept second by second. */
export type SecondResult = PerSecondKeysOf<'result'>;

/** Snapshot fields of the endpoint trends (each endpoint's and the run's). */
export type EndpointTrendField = FieldsOf<'endpoint-trend'>;
/** Snapshot fields of the endpoint counters (each endpoint's and the run's). */
export type EndpointCounterField = FieldsOf<'endpoint-counter'>;
/** Snapshot fields of the endpoint rates (each endpoint's and the run's). */
export type EndpointRateField = FieldsOf<'endpoint-rate'>;
/** Snapshot fields of the run's trends. */
export type RunTrendField = FieldsOf<'run-trend'>;
/** Snapshot fields of the run's counters that are not core ones (absent until counted). */
export type RunCounterField = FieldsOf<'run-counter'>;

/** A metric of a figure family, as the pipeline reads it. */
export interface Figure {
  readonly metric: BuiltinMetric;
  readonly family: FigureFamily;
  readonly spec: FigureSpec;
  /** How it is kept: an HDR histogram, a count, or true samples of a total. */
  readonly shape: FigureShape;
  /**
   * Its index among the figures of its shape (TRENDS, COUNTERS, RATES); -1 for a core counter,
   * which the recorder keeps in a field of its own.
   */
  readonly index: number;
  /** The group of `result` (`sse` of `sse.events`); undefined for an ungrouped figure. */
  readonly group: string | undefined;
  /** Its key within the group, or the whole result key. */
  readonly key: string;
  /** The indexes of its group's trends, counters and rates (itself included), made together. */
  readonly groupTrends: readonly number[];
  readonly groupCounters: readonly number[];
  readonly groupRates: readonly number[];
}

/** How a figure is kept: an HDR histogram, a count, or true samples of a total. */
export type FigureShape = 'trend' | 'counter' | 'rate';

const SHAPES: Readonly<Record<FigureFamily, FigureShape>> = {
  'endpoint-trend': 'trend',
  'run-trend': 'trend',
  'endpoint-counter': 'counter',
  'run-counter': 'counter',
  'endpoint-rate': 'rate',
};

/** How a family's figures are kept. */
export function shapeOf(family: FigureFamily): FigureShape {
  return SHAPES[family];
}

/** True for a family kept per endpoint as well as for the run. */
export function perEndpoint(family: FigureFamily): boolean {
  return family.startsWith('endpoint-');
}

/** True for a trend family. */
export function isTrend(family: FigureFamily): boolean {
  return SHAPES[family] === 'trend';
}

function figuresOf(): Figure[] {
  const rows = (Object.keys(BUILTIN_METRICS) as BuiltinMetric[]).flatMap((metric) => {
    const row: BuiltinDeclaration = BUILTIN_METRICS[metric];
    return row.figure === undefined ? [] : [{ metric, family: row.family, spec: row.figure }];
  });
  const next: Record<FigureShape, number> = { trend: 0, counter: 0, rate: 0 };
  const indexed = rows.map((row) => {
    const dot = row.spec.result.indexOf('.');
    const shape = shapeOf(row.family);
    return {
      ...row,
      shape,
      index: row.spec.core === true ? -1 : next[shape]++,
      group: dot < 0 ? undefined : row.spec.result.slice(0, dot),
      key: dot < 0 ? row.spec.result : row.spec.result.slice(dot + 1),
    };
  });
  return indexed.map((figure) => {
    const group = indexed.filter((f) => f.group !== undefined && f.group === figure.group);
    const members = group.length === 0 ? [figure] : group;
    const indexes = (shape: FigureShape): number[] =>
      members.filter((f) => f.shape === shape && f.index >= 0).map((f) => f.index);
    return {
      ...figure,
      groupTrends: indexes('trend'),
      groupCounters: indexes('counter'),
      groupRates: indexes('rate'),
    };
  });
}

/** Every figure metric, in registry order. */
export const FIGURES: readonly Figure[] = Object.freeze(figuresOf());

/** The trend figures by index. */
export const TRENDS: readonly Figure[] = FIGURES.filter((f) => f.shape === 'trend');

/** The counter figures kept apart, by index (not the core counters). */
export const COUNTERS: readonly Figure[] = FIGURES.filter(
  (f) => f.shape === 'counter' && f.index >= 0,
);

/** The rate figures by index. */
export const RATES: readonly Figure[] = FIGURES.filter((f) => f.shape === 'rate');

/** The figures kept second by second too (FigureSpec.perSecond), in registry order. */
export const SECOND_FIGURES: readonly Figure[] = FIGURES.filter(
  (f) => f.spec.perSecond !== undefined && f.index >= 0 && f.shape !== 'rate',
);

/** By a trend's index, its slot in SECOND_FIGURES; -1 for one not kept second by second. */
export const SECOND_SLOT_OF_TREND: readonly number[] = TRENDS.map((f) => SECOND_FIGURES.indexOf(f));

/** By a counter's index, its slot in SECOND_FIGURES; -1 for one not kept second by second. */
export const SECOND_SLOT_OF_COUNTER: readonly number[] = COUNTERS.map((f) =>
  SECOND_FIGURES.indexOf(f),
);

/** A figure metric's index among its kind's (the recorder's argument; -1: a core counter). */
export const FIGURE: Readonly<Record<MetricsOf<FigureFamily>, number>> = Object.freeze(
  Object.fromEntries(FIGURES.map((f) => [f.metric, f.index])) as Record<
    MetricsOf<FigureFamily>,
    number
  >,
);

/**
 * True when a figure shows in a summarized result of `scope`: a run's shows every figure but the
 * core counters (placed by hand); an endpoint's, the groups of the endpoint families and the
 * endpoint trends marked `perEndpoint`.
 */
export function shownIn(figure: Figure, scope: 'run' | 'endpoint'): boolean {
  if (figure.index < 0) return false;
  if (scope === 'run') return true;
  return (
    perEndpoint(figure.family) && (figure.group !== undefined || figure.spec.perEndpoint === true)
  );
}

/** A group's figures in the order results list them: its counters, its rates, its trends. */
export function groupMembers(group: string): readonly Figure[] {
  const members = FIGURES.filter((f) => f.group === group);
  const order: readonly FigureShape[] = ['counter', 'rate', 'trend'];
  return order.flatMap((shape) => members.filter((f) => f.shape === shape));
}

/** The figure of a built-in metric of a figure family, undefined for another family's. */
export function figureOf(metric: BuiltinMetric): Figure | undefined {
  return FIGURES.find((f) => f.metric === metric);
}
