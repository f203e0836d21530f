/**
 * Weighted random selection exactly as spec §1 rule 8: draw an integer r in [0, total) and take the
 * item whose cumulative range [cumulative[i-1], cumulative[i]) holds it. Binary search: weights are
 * never expanded into arrays (STYLE.md "what to avoid").
 */
import type { PickItem, PickTable } from '../../model/plan/scenario-graph.js';
import type { Random } from '../../model/random.js';

/** Index of the item whose cumulative range holds r (0 <= r < total). */
export function pickIndex(cumulative: readonly number[], r: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (r < cumulative[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Picks one item. */
export function weightedPick(table: PickTable, random: Random): PickItem {
  return table.items[pickIndex(table.cumulative, random.int(table.total))]!;
}
