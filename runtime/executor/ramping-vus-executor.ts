/**
 * k6's ramping-vus: the number of active virtual users follows stages, from start_vus linearly to
 * each stage's target over its duration. The scenario's VUs are ranked 0, 1, 2… across segments
 * (split-plan.ts); VU r is active while floor(target(t)) > r, so the active count is exact at
 * every instant, summed over segments. A VU ramped down finishes the iteration it is in; if that
 * takes longer than graceful_ramp_down, its request in flight is cut (aborted). The gates change
 * at the exact instants the target crosses an integer: the next one is computed, not polled.
 * The scenario ends with its last stage.
 */
import type { StagePlan } from '../../model/plan/scenario-plan.js';
import { HardStopError } from '../../model/errors/barrage-error.js';
import { setLongTimeout, sleepLong, type LongTimeout } from '../schedule/long-timer.js';
import type { VirtualUser } from '../user/virtual-user.js';
import type { Executor, ExecutorContext } from './executor.js';
import { GatedSource } from './gated-source.js';

/** One of the executor's VUs. */
interface Gate {
  readonly rank: number;
  readonly source: GatedSource;
  readonly vu: VirtualUser;
  /** The ramp-down grace under way. */
  grace: LongTimeout | undefined;
}

/** The ramping-vus executor. */
export class RampingVusExecutor implements Executor {
  readonly #context: ExecutorContext;
  readonly #stop = new AbortController();
  readonly #gates: Gate[] = [];
  #timer: LongTimeout | undefined;
  #ended = false;

  constructor(context: ExecutorContext) {
    this.#context = context;
  }

  async run(): Promise<void> {
    const { scenario, share, now } = this.#context;
    await sleepLong(scenario.startMs - now() / 1000, this.#stop.signal);
    if (this.#stop.signal.aborted || share.maxWorkers === 0) return;
    const done: Promise<void>[] = [];
    for (let i = 0; i < share.maxWorkers; i++) {
      const source = new GatedSource();
      const started = this.#context.startWorker(source);
      this.#gates.push({
        rank: share.rankFirst + i * share.rankStride,
        source,
        vu: started.vu,
        grace: undefined,
      });
      done.push(started.done);
    }
    this.#update();
    await Promise.all(done);
    this.#timer?.clear();
  }

  stop(): void {
    this.#stop.abort();
    this.#end();
  }

  rate(): undefined {
    return undefined;
  }

  /** Opens and shuts the gates for the target now, and waits for its next integer crossing. */
  #update(): void {
    const { scenario, now } = this.#context;
    const executor = scenario.executor;
    if (executor.kind !== 'ramping-vus' || this.#ended) return;
    const t = now() / 1000 - scenario.startMs;
    const { target, nextMs, over } = crossing(executor.startVus, executor.stages, t);
    if (over) {
      this.#end();
      this.#context.timeUp();
      return;
    }
    const active = Math.floor(target + 1e-9);
    for (const gate of this.#gates)
      this.#set(gate, gate.rank < active, executor.gracefulRampDownMs);
    // Just past the crossing, so that floor(target) has changed when it is read.
    this.#timer = setLongTimeout(() => this.#update(), Math.max(1, nextMs - t + 0.5));
  }

  #set(gate: Gate, active: boolean, graceMs: number): void {
    if (gate.source.active === active) return;
    gate.source.set(active);
    gate.grace?.clear();
    gate.grace = undefined;
    if (!active && gate.vu.busy)
      gate.grace = setLongTimeout(() => {
        gate.grace = undefined;
        if (!gate.source.active && gate.vu.busy) gate.vu.abort(new HardStopError());
      }, graceMs);
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#timer?.clear();
    for (const gate of this.#gates) {
      gate.grace?.clear();
      gate.source.close();
    }
  }
}

/**
 * The target at `t` ms into the stages, the next instant (ms) at which its integer part changes,
 * and whether the stages are over.
 */
export function crossing(
  startVus: number,
  stages: readonly StagePlan[],
  t: number,
): { target: number; nextMs: number; over: boolean } {
  let from = startVus;
  let a = 0;
  for (const stage of stages) {
    const b = a + stage.durationMs;
    if (t < b) {
      const to = stage.target;
      const value = from + ((to - from) * (t - a)) / stage.durationMs;
      let next = b;
      if (to > from) {
        const m = Math.floor(value) + 1;
        if (m <= to) next = a + ((m - from) * stage.durationMs) / (to - from);
      } else if (to < from) {
        const m = Math.floor(value);
        if (m >= to && m < value) next = a + ((m - from) * stage.durationMs) / (to - from);
        else if (m - 1 >= to) next = a + ((m - 1 - from) * stage.durationMs) / (to - from);
      }
      return { target: value, nextMs: Math.min(b, Math.max(next, t)), over: false };
    }
    from = stage.target;
    a = b;
  }
  return { target: from, nextMs: Infinity, over: true };
}
