/**
 * Splits a run into exact shares (DESIGN.md §3): first this process's share of a distributed run
 * (segment i of n), then one share per worker thread. Integers are divided exactly:
 *   share(total, parts, k) = floor(total / parts) + (k < total mod parts ? 1 : 0)
 * so the shares sum to the total; rates are divided evenly; feeder records are dealt out in turn
 * (record r goes to share r mod parts), so every record is used by exactly one segment and the
 * global order is kept as closely as possible. Dealt twice (process k of n, then thread t of u),
 * a segment's records are the rows k + n·t + (n·u)·i: a strided slice of the shared table, which
 * nothing copies.
 * The open model's permits are dealt the same way: permit m of the run goes to process m mod n,
 * whose j-th permit (m = j·n + k) goes to thread j mod u, so segment (k, t) paces every
 * (n·u)-th permit from m = t·n + k: rate share 1/(n·u), phase (t·n + k)/(n·u) of its own period.
 * It holds share(share(N, n, k), u, t) of the schedule's N permits (permit-count.ts), and the
 * segments' permits sum to N even when processes run different thread counts.
 */
import type { Plan } from '../../dsl/plan/plan.js';
import { scheduledPermits } from '../schedule/permit-count.js';
import type { SegmentSpec } from './segment-spec.js';

/** The k-th (0-based) of `parts` exact integer shares of `total`. */
export function share(total: number, parts: number, k: number): number {
  return Math.floor(total / parts) + (k < total % parts ? 1 : 0);
}

/** This process's segments for `threads` threads (fewer when there are fewer workers). */
export function splitPlan(plan: Plan, threads: number): SegmentSpec[] {
  const { index, count } = plan.segment;
  const k = index - 1;
  const workers = share(plan.concurrency, count, k);
  const firstWorker =
    k * Math.floor(plan.concurrency / count) + Math.min(k, plan.concurrency % count);
  const requests = plan.requests === undefined ? undefined : share(plan.requests, count, k);
  const total = scheduledPermits(plan);
  const permits = total === undefined ? undefined : share(total, count, k);
  const used = Math.max(1, Math.min(threads, workers));
  const specs: SegmentSpec[] = [];
  let nextWorker = firstWorker;
  for (let t = 0; t < used; t++) {
    const own = share(workers, used, t);
    specs.push({
      plan,
      thread: t,
      threads: used,
      rateShare: 1 / (count * used),
      phase: (t * count + k) / (count * used),
      workers: own,
      firstWorkerId: nextWorker,
      requests: requests === undefined ? undefined : share(requests, used, t),
      permits: permits === undefined ? undefined : share(permits, used, t),
      records: { first: k + count * t, stride: count * used },
    });
    nextWorker += own;
  }
  return specs;
}
