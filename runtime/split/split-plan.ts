/**
 * Splits a run into exact shares (DESIGN.md §3): first this process's share of a distributed run
 * (segment i of n), then one share per worker thread, scenario by scenario. Integers are divided
 * exactly:
 *   share(total, parts, k) = floor(total / parts) + (k < total mod parts ? 1 : 0)
 * so the shares sum to the total; rates are divided evenly among the segments that run the
 * scenario; feeder records are dealt out in turn (record r goes to share r mod parts), so every
 * record is used by exactly one segment and the global order is kept as closely as possible.
 * Dealt twice (process k of n, then thread t of u), a segment's records are the rows
 * k + n·t + (n·u)·i: a strided slice of the shared table, which nothing copies.
 * An arrival-rate scenario's permits are dealt the same way: permit m goes to process m mod n,
 * whose j-th permit (m = j·n + k) goes to thread j mod u, so segment (k, t) paces every (n·u)-th
 * permit from m = t·n + k: rate share 1/(n·u), phase (t·n + k)/(n·u) of its own period. It holds
 * share(share(N, n, k), u, t) of the schedule's N permits (permit-count.ts), and the segments'
 * permits sum to N even when processes run different thread counts. A scenario with fewer virtual
 * users in this process than threads runs in as many threads as it has users (u is its own); a
 * scenario's VUs ranked 0, 1, 2… go to segment (k, t) when rank = t·n + k modulo n·u, so the VUs
 * a ramp activates first are spread over the segments.
 */
import type { Plan } from '../../model/plan/plan.js';
import { maxVus, type ScenarioPlan } from '../../model/plan/scenario-plan.js';
import { scheduledPermits } from '../schedule/permit-count.js';
import type { ScenarioShare, SegmentSpec } from './segment-spec.js';

/** The k-th (0-based) of `parts` exact integer shares of `total`. */
export function share(total: number, parts: number, k: number): number {
  return Math.floor(total / parts) + (k < total % parts ? 1 : 0);
}

/** This process's segments for `threads` threads (fewer when there are fewer workers). */
export function splitPlan(plan: Plan, threads: number): SegmentSpec[] {
  const { index, count } = plan.segment;
  const k = index - 1;
  const most = Math.max(...plan.scenarios.map((s) => share(maxVus(s.executor), count, k)));
  const used = Math.max(1, Math.min(threads, most));
  let base = 0;
  const perThread: ScenarioShare[][] = Array.from({ length: used }, () => []);
  plan.scenarios.forEach((scenario, s) => {
    const shares = scenarioShares(scenario, s, base, count, k, used);
    shares.forEach((own, t) => perThread[t]!.push(own));
    base += maxVus(scenario.executor);
  });
  return perThread.map((scenarios, t) => ({
    plan,
    thread: t,
    threads: used,
    rateShare: 1 / (count * used),
    scenarios,
    records: { first: k + count * t, stride: count * used },
  }));
}

/** Scenario `s`'s share for each of `used` threads of process k of n; ids from `base`. */
function scenarioShares(
  scenario: ScenarioPlan,
  s: number,
  base: number,
  n: number,
  k: number,
  used: number,
): ScenarioShare[] {
  const executor = scenario.executor;
  const most = maxVus(executor);
  const processMost = share(most, n, k);
  const u = Math.max(1, Math.min(used, processMost));
  const starting =
    executor.kind === 'arrival-rate'
      ? executor.preAllocatedVus
      : executor.kind === 'vus'
        ? executor.vus
        : most;
  const processStart = share(starting, n, k);
  const iterations =
    executor.kind === 'arrival-rate' || (executor.kind === 'vus' && !executor.perVu)
      ? executor.iterations
      : undefined;
  const processIterations = iterations === undefined ? undefined : share(iterations, n, k);
  const total =
    executor.kind === 'arrival-rate'
      ? scheduledPermits(executor.rate, executor.durationMs)
      : undefined;
  const processPermits = total === undefined ? undefined : share(total, n, k);
  // VU ranks r with r mod (n·u) = t·n + k, in this process's id block.
  const firstId = base + k * Math.floor(most / n) + Math.min(k, most % n);
  let nextId = firstId;
  return Array.from({ length: used }, (_, t): ScenarioShare => {
    const runs = t < u;
    const maxWorkers = runs ? share(processMost, u, t) : 0;
    const own: ScenarioShare = {
      scenario: s,
      workers: runs ? share(processStart, u, t) : 0,
      maxWorkers,
      firstWorkerId: nextId,
      rateShare: runs ? 1 / (n * u) : 0,
      phase: runs ? (t * n + k) / (n * u) : 0,
      iterations:
        processIterations === undefined ? undefined : runs ? share(processIterations, u, t) : 0,
      permits: processPermits === undefined ? undefined : runs ? share(processPermits, u, t) : 0,
      rankFirst: t * n + k,
      rankStride: n * u,
    };
    nextId += maxWorkers;
    return own;
  });
}
