/**
 * The figures of the metric registry kept second by second (FigureSpec.perSecond: LLM output
 * tokens and completed LLM requests) in a second's snapshot: each at its field, present in a
 * second that counted any of them. A merge sums them exactly, each where any bucket has it.
 */
import {
  SECOND_FIGURES,
  type Figure,
  type SecondField,
} from '../../model/metrics/metric-figures.js';
import type { SecondSnapshot } from './snapshot.js';

/** The per-second figures of a snapshot, by field. */
export type SecondFigures = { [K in SecondField]?: number };

/** A second's snapshot field of a figure kept second by second. */
export function secondField(figure: Figure): SecondField {
  return figure.spec.perSecond!.field as SecondField;
}

/** A bucket's counts (by slot in SECOND_FIGURES) by field; none when it counted none. */
export function secondFigures(counts: readonly number[] | undefined): SecondFigures {
  if (counts === undefined) return {};
  return Object.fromEntries(SECOND_FIGURES.map((f, slot) => [secondField(f), counts[slot]!]));
}

/** The per-second figures of a second's buckets summed, each where any bucket has it. */
export function sumSecondFigures(group: readonly SecondSnapshot[]): SecondFigures {
  const out: SecondFigures = {};
  for (const figure of SECOND_FIGURES) {
    const field = secondField(figure);
    if (!group.some((b) => b[field] !== undefined)) continue;
    let total = 0;
    for (const b of group) total += b[field] ?? 0;
    out[field] = total;
  }
  return out;
}

/** True when two seconds' snapshots hold the same per-second figures. */
export function sameSecondFigures(a: SecondSnapshot, b: SecondSnapshot): boolean {
  return SECOND_FIGURES.every((f) => a[secondField(f)] === b[secondField(f)]);
}
