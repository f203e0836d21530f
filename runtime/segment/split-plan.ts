/**
 * Splits a run into exact shares (DESIGN.md §3): first this process's share of a distributed run
 * (segment i of n), then one share per worker thread. Integers are divided exactly:
 *   share(total, parts, k) = floor(total / parts) + (k < total mod parts ? 1 : 0)
 * so the shares sum to the total; rates are divided evenly; feeder records are dealt out in turn
 * (record r goes to share r mod parts), so every record is used by exactly one segment and the
 * global order is kept as closely as possible. Dealt twice (process k of n, then thread t of u),
 * a segment's records are the rows k + n·t + (n·u)·i: a strided slice of the shared table, which
 * nothing copies.
 */
import type { Plan } from '../../dsl/plan/plan.js';
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
      phase: (k * used + t) / (count * used),
      workers: own,
      firstWorkerId: nextWorker,
      requests: requests === undefined ? undefined : share(requests, used, t),
      records: { first: k + count * t, stride: count * used },
    });
    nextWorker += own;
  }
  return specs;
}
