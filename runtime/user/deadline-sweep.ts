/**
 * The deadline sweep of a segment: one interval timer for all its workers instead of a timer per
 * request. Each worker's `deadlineUs` (0: nothing in flight) is the deadline of its request, or of
 * its WebSocket session's wait (and of each http.batch() lane's request); past it, what is in
 * flight is aborted as a timeout. A stream's idle deadline (its exchange's `idleDeadlineUs`, moved
 * by each event) is swept alike and aborts it as idle_timeout. A deadline is
 * enforced within timeout/20 (at least 5 ms, at most 250 ms) of passing.
 */
import { IdleTimeoutError, RequestTimeoutError } from '../../model/errors/barrage-error.js';
import type { VirtualUser } from './virtual-user.js';

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
      sweepOne(vu, t);
      for (const lane of vu.lanes) sweepOne(lane, t);
    }
  }, sweepMs);
  return () => clearInterval(sweep);
}

/** Aborts what a worker (or a batch lane) has in flight past its deadline or its idle deadline. */
function sweepOne(vu: VirtualUser, t: number): void {
  if (vu.deadlineUs === 0) return;
  if (t > vu.deadlineUs) vu.abortOwn(new RequestTimeoutError());
  else if (vu.exchange.idleDeadlineUs !== 0 && t > vu.exchange.idleDeadlineUs)
    vu.abortOwn(new IdleTimeoutError());
}
