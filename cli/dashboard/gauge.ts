/**
 * A horizontal gauge `width` cells wide, filled in eighths of a cell (▏▎▍▌▋▊▉█) so that small
 * changes show. Pure; the fill and the rest come apart so that they can be styled apart.
 *
 *   eighths = round(clamp(fraction, 0, 1) · width · 8)
 *   fill    = floor(eighths / 8) full blocks, then one partial block when eighths mod 8 > 0
 *   rest    = '░' up to `width` cells
 */

const PARTIAL = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A gauge's two parts. */
export interface GaugeCells {
  readonly fill: string;
  readonly rest: string;
}

/** The gauge of `fraction` (clamped to 0..1; NaN is 0) in `width` cells. */
export function gauge(fraction: number, width: number): GaugeCells {
  if (width <= 0) return { fill: '', rest: '' };
  const clamped = Math.min(1, Math.max(0, Number.isNaN(fraction) ? 0 : fraction));
  const eighths = Math.round(clamped * width * 8);
  const full = Math.floor(eighths / 8);
  const fill = '█'.repeat(full) + PARTIAL[eighths % 8]!;
  const used = full + (eighths % 8 > 0 ? 1 : 0);
  return { fill, rest: '░'.repeat(width - used) };
}
