/**
 * A small terminal chart of a pattern's rate (or any load) over time, so `validate` shows the
 * shape of the load before any traffic: columns are equal slices of the duration, each drawn as a
 * bar of eighth-blocks scaled to the peak.
 */
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { PatternPlan } from '../../model/plan/rate-plan.js';
import { patternDurationMs, patternPeak, rateAt } from '../../runtime/schedule/rate-function.js';

const BLOCKS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** The chart as lines of text: `height` rows of bars, an axis, and the time labels. */
export function renderRateChart(pattern: PatternPlan, width = 60, height = 6): string[] {
  const total = patternDurationMs(pattern);
  return renderChart((ms) => rateAt(pattern, ms), total, patternPeak(pattern), '/s', width, height);
}

/**
 * A chart of any value over [0, totalMs] (a rate, a number of virtual users), scaled to `peak`,
 * its ticks written with `unit`; each column shows the value at the middle of its slice.
 */
export function renderChart(
  valueAt: (ms: number) => number,
  totalMs: number,
  peakValue: number,
  unit: string,
  width = 60,
  height = 6,
): string[] {
  const total = totalMs;
  const rates = Array.from({ length: width }, (_, i) => valueAt(((i + 0.5) * total) / width));
  const peak = Math.max(peakValue, 1e-9);
  const label = (rate: number): string =>
    `${Number.isInteger(rate) ? rate : rate.toFixed(1)}${unit}`;
  const gutter = Math.max(label(peak).length, 3);
  const lines: string[] = [];
  for (let row = height - 1; row >= 0; row--) {
    const bar = rates
      .map((rate) => {
        const eighths = Math.round((rate / peak) * height * 8) - row * 8;
        return BLOCKS[Math.max(0, Math.min(8, eighths))];
      })
      .join('');
    const tick = row === height - 1 ? label(peak) : row === 0 ? `0${unit}` : '';
    lines.push(`${tick.padStart(gutter)} │${bar}`.trimEnd());
  }
  lines.push(`${' '.repeat(gutter)} └${'─'.repeat(width)}`);
  const end = formatDuration(total);
  lines.push(`${' '.repeat(gutter)}  0${end.padStart(width - 1)}`);
  return lines;
}
