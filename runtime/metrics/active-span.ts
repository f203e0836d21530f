/**
 * A shard's active span: from the send of its first request (or WebSocket session) to the end of
 * its last, µs since dispatch start. A scenario's rates (requests/s, output tokens/s, a counter's
 * rate) are over its own span, so that levels of a sweep that ran side by side or one after the
 * other, for different lengths, are compared at their own pace:
 *   scenario rate = count / ((toUs − fromUs) / 1e6)
 * The run's rates stay over the run's duration. A merge takes the earliest send and the latest
 * end, exactly (min and max are associative and commutative).
 */
import type { ShardSnapshot } from './snapshot.js';

/** [first send, last end], µs since dispatch start. */
export type ActiveSpan = readonly [fromUs: number, toUs: number];

/** A recorder's span so far. */
export class ActiveSpanTracker {
  #from = -1;
  #to = -1;

  /** Widens the span to a request sent at `startUs` that ended at `endUs`. */
  within(startUs: number, endUs: number): void {
    if (this.#from < 0 || startUs < this.#from) this.#from = Math.max(0, startUs);
    if (endUs > this.#to) this.#to = endUs;
  }

  /** The span, absent before the first request. */
  snapshot(): Pick<ShardSnapshot, 'active'> {
    return this.#to < 0 ? {} : { active: [this.#from, this.#to] };
  }
}

/** The span of merged shards: the earliest send, the latest end; absent when none has one. */
export function mergeActive(snapshots: readonly ShardSnapshot[]): Pick<ShardSnapshot, 'active'> {
  let from = Infinity;
  let to = -Infinity;
  for (const s of snapshots) {
    if (s.active === undefined) continue;
    from = Math.min(from, s.active[0]);
    to = Math.max(to, s.active[1]);
  }
  return to < from ? {} : { active: [from, to] };
}

/** The span as if dispatch had begun `gapUs` earlier (a distributed merge's common start). */
export function shiftActive(snapshot: ShardSnapshot, gapUs: number): Pick<ShardSnapshot, 'active'> {
  const a = snapshot.active;
  return a === undefined ? {} : { active: [a[0] + gapUs, a[1] + gapUs] };
}

/** A scenario's snapshot with its elapsed time its active span (unchanged without one). */
export function overActiveSpan(snapshot: ShardSnapshot): ShardSnapshot {
  const a = snapshot.active;
  return a === undefined ? snapshot : { ...snapshot, elapsedMs: Math.max(0, a[1] - a[0]) / 1000 };
}
