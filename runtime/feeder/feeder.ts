/**
 * Feeders hand out records (spec §2.3). `sequential` walks one order shared by every worker of the
 * segment, `shuffle` walks a seeded permutation (reshuffled each cycle), `random` draws with
 * replacement. Without `cycle`, next() returns undefined once every record was used, and the run
 * ends (the caller stops dispatch).
 */
import type { FeederPlan } from '../../dsl/plan/plan.js';
import type { Random } from '../random.js';

/** A record, or undefined when the feeder is exhausted. */
export type FeederRecord = Readonly<Record<string, string>> | undefined;

/** Source of feeder records for one segment. */
export interface Feeder {
  next(): FeederRecord;
}

/** A feeder over `records` (this segment's slice), with its own seeded random source. */
export function createFeeder(
  plan: Pick<FeederPlan, 'order' | 'cycle'>,
  records: FeederPlan['records'],
  random: Random,
): Feeder {
  if (records.length === 0) return { next: () => undefined };
  if (plan.order === 'random') {
    let left = plan.cycle ? Infinity : records.length;
    return { next: () => (left-- > 0 ? records[random.int(records.length)] : undefined) };
  }
  let order = plan.order === 'shuffle' ? shuffled(records.length, random) : undefined;
  let position = 0;
  return {
    next: () => {
      if (position === records.length) {
        if (!plan.cycle) return undefined;
        position = 0;
        if (order !== undefined) order = shuffled(records.length, random);
      }
      const index = order === undefined ? position : order[position]!;
      position++;
      return records[index];
    },
  };
}

/** A uniformly random permutation of 0..n-1 (Fisher–Yates). */
function shuffled(n: number, random: Random): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}
