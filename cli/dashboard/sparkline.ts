/**
 * Sparklines of requests/s: one column per value, newest on the right, drawn with the block
 * elements ▁▂▃▄▅▆▇█. Pure. One row gives eight levels; a chart of h rows gives 8·h:
 *
 *   eighths(v) = ceil(8 · h · v / max)   (v > 0; at least 1, so any traffic shows)
 *   row r (0 = bottom) of a column: █ when eighths ≥ 8·(r + 1); the partial block of
 *   eighths − 8·r when between; blank below that
 *
 * v = 0 is blank, so that "nothing completed" differs from "a little"; max is the largest value
 * drawn (or the one given), so the tallest column reaches the top.
 */

const BLOCKS = ['', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** The last `width` values as a chart `height` rows tall, top row first, each `width` wide. */
export function sparkChart(
  values: readonly number[],
  width: number,
  height: number,
  max?: number,
): string[] {
  if (width <= 0 || height <= 0) return Array.from({ length: Math.max(0, height) }, () => '');
  const shown = values.slice(Math.max(0, values.length - width));
  const top = max ?? shown.reduce((a, b) => Math.max(a, b), 0);
  const pad = width - shown.length;
  const eighths = shown.map((v) =>
    v > 0 && top > 0 ? Math.min(8 * height, Math.max(1, Math.ceil((8 * height * v) / top))) : 0,
  );
  const rows: string[] = [];
  for (let r = height - 1; r >= 0; r--) {
    let row = ' '.repeat(pad);
    for (const e of eighths) row += BLOCKS[Math.min(8, Math.max(0, e - 8 * r))] || ' ';
    rows.push(row);
  }
  return rows;
}

/** The last `width` values as a one-row sparkline exactly `width` characters wide. */
export function sparkline(values: readonly number[], width: number, max?: number): string {
  return sparkChart(values, width, 1, max)[0] ?? '';
}
