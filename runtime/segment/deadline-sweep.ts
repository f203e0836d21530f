/**
 * The deadline sweep of a segment: one interval timer for all its workers instead of a timer per
 * request. Each worker's `deadlineUs` (0: nothing in flight) is the deadline of its request, or of
 * its WebSocket session's wait (and of each http.batch() lane's request); past it, what is in
 * flight is aborted as a timeout. A deadline is
 * enforced within timeout/20 (at least 5 ms, at most 250 ms) of passing.
 */
import { RequestTimeoutError } from '../http/exchange.js';
import type { VirtualUser } from '../worker/virtual-user.js';

/** Starts the sweep; returns its stop. */
export function startDeadlineSweep(
  users: readonly VirtualUser[],
  timeoutMs: number,
  now: () => number,
): () => void {
  const sweepMs = Math.min(250, Math.max(5, timeoutMs / 20));
  const sweep = setInterval(() => {
    const t = now();
    for (const vu of users) {
      if (vu.deadlineUs !== 0 && t > vu.deadlineUs) vu.abortOwn(new RequestTimeoutError());
      for (const lane of vu.lanes)
        if (lane.deadlineUs !== 0 && t > lane.deadlineUs) lane.abortOwn(new RequestTimeoutError());
    }
  }, sweepMs);
  return () => clearInterval(sweep);
}
