/**
 * The live view of a segment: every `everyMs`, its cumulative snapshot and its live state (busy
 * workers, requests in flight, the target rate), counted when taken, never per request.
 */
import type { ShardSnapshot } from '../metrics/snapshot.js';
import type { VirtualUser } from '../user/virtual-user.js';
import type { LiveState } from './live-state.js';

/** Starts the snapshot timer; returns its stop. */
export function startLiveSnapshots(
  users: readonly VirtualUser[],
  snapshot: (us: number) => ShardSnapshot,
  now: () => number,
  everyMs: number,
  rate: () => number | undefined,
  onSnapshot: (snapshot: ShardSnapshot, live: LiveState) => void,
): () => void {
  const timer = setInterval(() => onSnapshot(snapshot(now()), liveState(users, rate())), everyMs);
  return () => clearInterval(timer);
}

/** Busy workers and requests in flight, counted when a snapshot is taken. */
function liveState(users: readonly VirtualUser[], targetRate: number | undefined): LiveState {
  let busy = 0;
  let inFlight = 0;
  for (const vu of users) {
    if (vu.busy) busy++;
    if (vu.deadlineUs !== 0) inFlight++;
  }
  return { workers: users.length, busy, inFlight, targetRate };
}
