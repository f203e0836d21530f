/**
 * Two results' figures side by side (figures.ts), each with its change and whether that change
 * is outside the noise the two runs show (noise.ts). Only figures that moved are kept: a changed
 * value, or a figure one run has and the other has not.
 */
import { figuresOf, type Figure, type FigureUnit } from './figures.js';
import { measuredMoved, measuredNoise, shareMoved, shareNoise } from './noise.js';
import type { ResultFigures } from './result-file.js';

/** Whether a change is outside the noise: `unknown` when it cannot be judged. */
export type Verdict = 'moved' | 'noise' | 'unknown';

/** One figure of both runs. */
export interface FigureChange {
  readonly scope: string;
  readonly name: string;
  readonly unit: FigureUnit;
  /** Undefined when only the new run has the figure. */
  readonly base: number | undefined;
  /** Undefined when only the base run has it. */
  readonly next: number | undefined;
  /** next − base; undefined when one is missing. */
  readonly change: number | undefined;
  /** The change relative to base, as a fraction; undefined when base is 0 or missing. */
  readonly relative: number | undefined;
  /** The band the change had to leave (in the figure's unit); undefined when unknown. */
  readonly noise: number | undefined;
  readonly verdict: Verdict;
}

/** Both runs' figures by scope and name. */
export interface Comparison {
  /** Every figure present in either run, moved or not (thresholds read them). */
  readonly all: readonly FigureChange[];
  /** Those that moved. */
  readonly moved: readonly FigureChange[];
}

/** The key that pairs a figure of one run with the same of the other. */
export function figureKey(scope: string, name: string): string {
  return `${scope}\n${name}`;
}

/** Compares two results. */
export function compareResults(base: ResultFigures, next: ResultFigures): Comparison {
  const union = (pick: (r: ResultFigures) => Readonly<Record<string, number>>): string[] =>
    [...new Set([...Object.keys(pick(base)), ...Object.keys(pick(next))])].sort();
  const keys = { errors: union((r) => r.errors), statuses: union((r) => r.status_codes) };
  const before = figuresOf(base, keys);
  const after = new Map(figuresOf(next, keys).map((f) => [figureKey(f.scope, f.name), f]));
  const all: FigureChange[] = [];
  for (const b of before) {
    const key = figureKey(b.scope, b.name);
    all.push(judge(b, after.get(key)));
    after.delete(key);
  }
  for (const n of after.values()) all.push(judge(undefined, n));
  return { all, moved: all.filter((c) => c.change !== 0) };
}

/** One figure's change and verdict. */
function judge(base: Figure | undefined, next: Figure | undefined): FigureChange {
  const known = (base ?? next)!;
  const common = { scope: known.scope, name: known.name, unit: known.unit };
  if (base === undefined || next === undefined)
    return {
      ...common,
      base: base?.value,
      next: next?.value,
      change: undefined,
      relative: undefined,
      noise: undefined,
      verdict: 'unknown',
    };
  const change = next.value - base.value;
  const relative = base.value === 0 ? undefined : change / Math.abs(base.value);
  const share = base.share !== undefined && next.share !== undefined;
  const noise = share
    ? shareNoise(base.share, next.share)
    : measuredNoise(base.value, base.error, next.error);
  const moved =
    noise !== undefined &&
    (share
      ? shareMoved(base.value, next.value, noise)
      : measuredMoved(base.value, next.value, noise));
  return {
    ...common,
    base: base.value,
    next: next.value,
    change,
    relative,
    noise,
    verdict: noise === undefined ? 'unknown' : moved ? 'moved' : 'noise',
  };
}
