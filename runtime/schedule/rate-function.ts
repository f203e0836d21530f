/**
 * Rates of the load patterns as pure functions of elapsed time (permits/s at t ms):
 *   ramp:  r(t) = from + (to - from) · min(1, t / duration)
 *   step:  r(t) = rate of the step whose span [start, start + duration) holds t
 *   spike: base for t < at; base + (peak - base) · (t - at) / rise while rising; peak for `hold`;
 *          peak - (peak - base) · (t - fallStart) / fall while falling; base until duration.
 *   stages: from `start`, each stage linearly to its target over its duration (a zero-length stage
 *          jumps).
 * Each is a list of linear pieces (a step is a piece whose rate does not change), the last rate
 * holding after the end. The permits due by t are the integral of the rate, exact piece by piece
 * (the trapezoid of a linear piece is its integral):
 *   permitsBy(t) = Σ over pieces (a, b) of (min(t, b) - a) · (r(a) + r(min(t, b))) / 2 / 1000
 * A pattern is complete at its total duration.
 */
import type { PatternPlan } from '../../model/plan/rate-plan.js';

/** A linear stretch of a pattern: the rate goes from `from` at `startMs` to `to` at `endMs`. */
export interface Piece {
  readonly startMs: number;
  readonly endMs: number;
  readonly from: number;
  readonly to: number;
}

/** Total length of a pattern, ms. */
export function patternDurationMs(pattern: PatternPlan): number {
  switch (pattern.type) {
    case 'ramp':
    case 'spike':
      return pattern.durationMs;
    case 'step':
      return pattern.steps.reduce((sum, step) => sum + step.durationMs, 0);
    case 'stages':
      return pattern.stages.reduce((sum, stage) => sum + stage.durationMs, 0);
  }
}

/** The highest rate a pattern reaches. */
export function patternPeak(pattern: PatternPlan): number {
  switch (pattern.type) {
    case 'ramp':
      return Math.max(pattern.from, pattern.to);
    case 'step':
      return pattern.steps.reduce((peak, step) => Math.max(peak, step.rate), 0);
    case 'spike':
      return Math.max(pattern.base, pattern.peak);
    case 'stages':
      return pattern.stages.reduce((peak, stage) => Math.max(peak, stage.target), pattern.start);
  }
}

/** The rate at `t` ms (the last value holds after the end). */
export function rateAt(pattern: PatternPlan, t: number): number {
  const ps = patternPieces(pattern);
  for (const p of ps) if (t < p.endMs) return rateIn(p, Math.max(t, p.startMs));
  return ps[ps.length - 1]!.to;
}

/** Permits due by `t` ms: the integral of the rate over [0, t] (the last rate holds after the end). */
export function permitsBy(pattern: PatternPlan, t: number): number {
  const ps = patternPieces(pattern);
  let sum = 0;
  for (const p of ps) {
    if (t <= p.startMs) return sum;
    const end = Math.min(t, p.endMs);
    sum += ((end - p.startMs) * (p.from + rateIn(p, end))) / 2000;
  }
  const last = ps[ps.length - 1]!;
  return t > last.endMs ? sum + ((t - last.endMs) * last.to) / 1000 : sum;
}

function rateIn(p: Piece, t: number): number {
  if (t >= p.endMs) return p.to;
  return p.from + ((p.to - p.from) * (t - p.startMs)) / (p.endMs - p.startMs);
}

/**
 * The pattern's linear pieces in time order; pieces of zero length (a jump) are left out, except
 * that a pattern of no length at all is one piece of length 0.
 */
export function patternPieces(pattern: PatternPlan): Piece[] {
  switch (pattern.type) {
    case 'ramp':
      return [{ startMs: 0, endMs: pattern.durationMs, from: pattern.from, to: pattern.to }];
    case 'step': {
      let start = 0;
      return pattern.steps.map((step) => {
        const piece = {
          startMs: start,
          endMs: start + step.durationMs,
          from: step.rate,
          to: step.rate,
        };
        start += step.durationMs;
        return piece;
      });
    }
    case 'spike':
      return spikePieces(pattern);
    case 'stages': {
      let start = 0;
      let from = pattern.start;
      const all = pattern.stages.map((stage) => {
        const piece = { startMs: start, endMs: start + stage.durationMs, from, to: stage.target };
        start += stage.durationMs;
        from = stage.target;
        return piece;
      });
      const kept = all.filter((piece) => piece.endMs > piece.startMs);
      return kept.length > 0 ? kept : [{ startMs: 0, endMs: 0, from, to: from }];
    }
  }
}

function spikePieces(p: Extract<PatternPlan, { type: 'spike' }>): Piece[] {
  const riseEnd = p.atMs + p.riseMs;
  const holdEnd = riseEnd + p.holdMs;
  const fallEnd = holdEnd + p.fallMs;
  const all: Piece[] = [
    { startMs: 0, endMs: p.atMs, from: p.base, to: p.base },
    { startMs: p.atMs, endMs: riseEnd, from: p.base, to: p.peak },
    { startMs: riseEnd, endMs: holdEnd, from: p.peak, to: p.peak },
    { startMs: holdEnd, endMs: fallEnd, from: p.peak, to: p.base },
    { startMs: fallEnd, endMs: Math.max(fallEnd, p.durationMs), from: p.base, to: p.base },
  ];
  const kept = all.filter((piece) => piece.endMs > piece.startMs);
  return kept.length > 0 ? kept : [{ startMs: 0, endMs: 0, from: p.base, to: p.base }];
}
