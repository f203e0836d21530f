/**
 * A fixed pool of virtual users, each looping iterations (k6's constant-vus, shared-iterations
 * and per-vu-iterations; the top-level form without a rate): from the scenario's start, until its
 * duration (or max_duration) has passed, its shared iteration count is spent, or each VU has run
 * its own count (per-vu-iterations).
 */
import { sleepLong, setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import { ClosedSource } from '../schedule/permit-source.js';
import type { Executor, ExecutorContext } from './executor.js';

/** The vus executor. */
export class VusExecutor implements Executor {
  readonly #context: ExecutorContext;
  readonly #sources: ClosedSource[] = [];
  readonly #stop = new AbortController();
  #timer: LongTimeout | undefined;

  constructor(context: ExecutorContext) {
    this.#context = context;
  }

  async run(): Promise<void> {
    const { scenario, share, now } = this.#context;
    const executor = scenario.executor;
    if (executor.kind !== 'vus') throw new Error('VusExecutor runs vus scenarios');
    await sleepLong(scenario.startMs - now() / 1000, this.#stop.signal);
    if (this.#stop.signal.aborted || share.workers === 0) return;
    const shared = new ClosedSource(share.iterations);
    if (!executor.perVu) this.#sources.push(shared);
    const workers = Array.from({ length: share.workers }, () => {
      const own = executor.perVu ? new ClosedSource(executor.iterations) : shared;
      if (executor.perVu) this.#sources.push(own);
      return this.#context.startWorker(own).done;
    });
    if (executor.durationMs !== undefined)
      this.#timer = setLongTimeout(
        () => {
          this.#close();
          this.#context.timeUp();
        },
        scenario.startMs + executor.durationMs - now() / 1000,
      );
    await Promise.all(workers);
    this.#timer?.clear();
  }

  stop(): void {
    this.#stop.abort();
    this.#timer?.clear();
    this.#close();
  }

  rate(): undefined {
    return undefined;
  }

  #close(): void {
    for (const source of this.#sources) source.close();
  }
}
