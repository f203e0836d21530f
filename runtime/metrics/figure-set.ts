/**
 * The figure families' figures of a shard (model/metrics/metric-figures.ts), for the run or for
 * one endpoint: each trend an HDR histogram and each counter a count, made on its metric's first
 * sample, together with the other figures of its group (so a stream's time to first event, its
 * gaps and its events appear together, the gaps "" while there are none). Snapshots carry them as
 * fields named by the registry, in its order; merges add them field by field.
 */
import {
  COUNTERS,
  FIGURES,
  perEndpoint,
  RATES,
  TRENDS,
  type Figure,
} from '../../model/metrics/metric-figures.js';
import { addEncoded, CachedHistogram, clampMicros, indexOfMicros } from './histogram.js';
import type { EncodedHistogram, RateCounts, RunFigureSnapshot } from './snapshot.js';

/** A figure's value in a snapshot: a histogram, a count, a rate's counts. */
export type FigureValue = EncodedHistogram | number | RateCounts;

/** A figure's value in a snapshot, by its registry field. */
export function figureValue(snapshot: RunFigureSnapshot, figure: Figure): FigureValue | undefined {
  return snapshot[figure.spec.field as keyof RunFigureSnapshot];
}

/** Which figures a set or a snapshot holds: an endpoint's, or the run's (all of them). */
export type FigureScope = 'endpoint' | 'run';

/** The figures of `scope`, in registry order, without the core counters (placed by hand). */
function scoped(scope: FigureScope): readonly Figure[] {
  return FIGURES.filter((f) => f.index >= 0 && (scope === 'run' || perEndpoint(f.family)));
}

const SCOPED: Readonly<Record<FigureScope, readonly Figure[]>> = {
  endpoint: scoped('endpoint'),
  run: scoped('run'),
};

/** One shard's figures of a scope, each made on its group's first sample. */
export class FigureSet {
  readonly #trends: (CachedHistogram | undefined)[] = [];
  readonly #counts: (number | undefined)[] = [];
  /** Each rate's true samples and total, made on its first sample. */
  readonly #rates: ([number, number] | undefined)[] = [];

  /** A sample of trend `figure` at a precomputed histogram index and clamped value. */
  trendAt(figure: number, index: number, value: number): void {
    const histogram = this.#trends[figure] ?? this.#make(TRENDS[figure]!, figure, true);
    (histogram as CachedHistogram).record(index, value);
  }

  /** A sample of trend `figure`, µs. */
  trend(figure: number, us: number): void {
    const value = clampMicros(us);
    this.trendAt(figure, indexOfMicros(value), value);
  }

  /** Adds `n` to counter `figure`. */
  count(figure: number, n: number): void {
    if (this.#counts[figure] === undefined) this.#make(COUNTERS[figure]!, figure, false);
    this.#counts[figure] = this.#counts[figure]! + n;
  }

  /** A sample of rate `figure`: true or false. */
  rate(figure: number, hit: boolean): void {
    if (this.#rates[figure] === undefined) this.#make(RATES[figure]!, figure, false);
    const counts = this.#rates[figure]!;
    if (hit) counts[0]++;
    counts[1]++;
  }

  /** Makes a figure's group (itself included); its own histogram when it is a trend. */
  #make(figure: Figure, own: number, trend: boolean): CachedHistogram | undefined {
    for (const t of figure.groupTrends) this.#trends[t] ??= new CachedHistogram();
    for (const c of figure.groupCounters) this.#counts[c] ??= 0;
    for (const r of figure.groupRates) this.#rates[r] ??= [0, 0];
    return trend ? this.#trends[own] : undefined;
  }

  /** The fields of the figures made so far, of `scope`, in registry order. */
  fields(scope: FigureScope): RunFigureSnapshot {
    const out: Record<string, FigureValue> = {};
    for (const f of SCOPED[scope]) {
      const value =
        f.shape === 'trend'
          ? this.#trends[f.index]?.encode()
          : f.shape === 'counter'
            ? this.#counts[f.index]
            : this.#rates[f.index];
      if (value !== undefined) out[f.spec.field] = Array.isArray(value) ? [...value] : value;
    }
    return out;
  }
}

/**
 * The figure fields of several snapshots of a scope merged: each trend the sum of the histograms
 * present, each count the sum of those present; absent where none is.
 */
export function mergeFigures(
  all: readonly RunFigureSnapshot[],
  scope: FigureScope,
): RunFigureSnapshot {
  const out: Record<string, FigureValue> = {};
  for (const f of SCOPED[scope]) {
    const present = all.flatMap((s) => {
      const value = figureValue(s, f);
      return value === undefined ? [] : [value];
    });
    if (present.length === 0) continue;
    if (f.shape === 'trend') out[f.spec.field] = addEncoded(present as EncodedHistogram[]);
    else if (f.shape === 'counter')
      out[f.spec.field] = (present as number[]).reduce((a, b) => a + b, 0);
    else out[f.spec.field] = sumRates(present as RateCounts[]);
  }
  return out;
}

/** Rates' counts summed: trues, and totals. */
export function sumRates(all: readonly RateCounts[]): RateCounts {
  let trues = 0;
  let total = 0;
  for (const [t, n] of all) {
    trues += t;
    total += n;
  }
  return [trues, total];
}
