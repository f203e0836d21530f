/**
 * Iterations started on a schedule (k6's constant- and ramping-arrival-rate; the top-level form
 * with a rate or a pattern): the pacer gives each permit its intended time from the scenario's
 * start (pacer.ts, pattern-pacer.ts), the Scheduler hands permits to a PermitQueue, and workers
 * take them. The pool starts at pre_allocated_vus and grows, one VU per permit that finds none
 * free, up to max_vus; past that a permit is dropped at once and counted (k6's dropped
 * iterations), or, in the top-level form (a fixed pool, `waitMs` = the timeout), waits late.
 * With `arrivals: poisson` the permits' times are a seeded Poisson process (poisson-pacer.ts).
 */
import type { ExecutorPlan } from '../../model/plan/scenario-plan.js';
import { ConstantPacer, type Pacer } from '../schedule/pacer.js';
import { PatternPacer } from '../schedule/pattern-pacer.js';
import { PoissonPacer } from '../schedule/poisson-pacer.js';
import { scheduleEndMs } from '../schedule/permit-count.js';
import { PermitQueue } from '../schedule/permit-queue.js';
import { sleepLong } from '../schedule/long-timer.js';
import { patternPeak } from '../schedule/rate-function.js';
import { Scheduler } from '../schedule/scheduler.js';
import type { Executor, ExecutorContext } from './executor.js';

type ArrivalRate = Extract<ExecutorPlan, { kind: 'arrival-rate' }>;

/** The arrival-rate executor. */
export class ArrivalRateExecutor implements Executor {
  readonly #context: ExecutorContext;
  readonly #stop = new AbortController();
  #scheduler: Scheduler | undefined;
  #pacer: Pacer | undefined;
  #startUs = 0;

  constructor(context: ExecutorContext) {
    this.#context = context;
  }

  async run(): Promise<void> {
    const { scenario, share, now, recorder, timeoutMs } = this.#context;
    const executor = scenario.executor as ArrivalRate;
    await sleepLong(scenario.startMs - now() / 1000, this.#stop.signal);
    if (this.#stop.signal.aborted || share.maxWorkers === 0) return;
    const startUs = (this.#startUs = scenario.startMs * 1000);
    const rate = executor.rate;
    const poisson = executor.arrivals === 'poisson';
    // Poisson arrivals are counted by the clock, not by the even schedule's permits.
    const phase = poisson ? 0 : share.phase;
    const permits = poisson ? undefined : share.permits;
    const even =
      rate.kind === 'constant'
        ? new ConstantPacer(rate.rate * share.rateShare, phase, permits)
        : new PatternPacer(rate.pattern, share.rateShare, phase, permits);
    const pacer = (this.#pacer = poisson ? new PoissonPacer(even, this.#context.random) : even);
    const peak = rate.kind === 'constant' ? rate.rate : patternPeak(rate.pattern);
    // A permit may wait for a worker at most one timeout; at most that many seconds of permits wait.
    const maxBacklog = Math.max(1024, Math.ceil(peak * share.rateShare * (timeoutMs / 1000)));
    const workers: Promise<void>[] = [];
    let started = 0;
    const grow = (): boolean => {
      if (started >= share.maxWorkers) return false;
      started++;
      workers.push(this.#context.startWorker(queue).done);
      return true;
    };
    const queue = new PermitQueue(
      now,
      (executor.waitMs > 0 ? executor.waitMs : timeoutMs) * 1000,
      maxBacklog,
      { late: () => recorder.recordLate(), dropped: (count) => recorder.recordDropped(count) },
      share.maxWorkers > share.workers || executor.waitMs === 0
        ? { grow, dropWhenFull: executor.waitMs === 0 }
        : undefined,
    );
    for (let i = 0; i < share.workers; i++) grow();
    const endUs = startUs + scheduleEndMs(rate, executor.durationMs) * 1000;
    const offset: Pacer = {
      intendedTime: (n) => startUs + pacer.intendedTime(n),
      rateAt: (us) => pacer.rateAt(us - startUs),
    };
    const scheduler = (this.#scheduler = new Scheduler(
      offset,
      queue,
      now,
      share.iterations ?? Infinity,
      endUs,
    ));
    // Let the workers reach take() first, so the first permits find them waiting, not late.
    await new Promise((resolve) => setImmediate(resolve));
    await scheduler.run();
    if (now() >= endUs) this.#context.timeUp();
    // Workers grown during the run were added to the list while it was awaited.
    for (let i = 0; i < workers.length; i++) await workers[i];
  }

  stop(): void {
    this.#stop.abort();
    this.#scheduler?.stop();
  }

  rate(): number | undefined {
    return this.#pacer?.rateAt(this.#context.now() - this.#startUs);
  }
}
