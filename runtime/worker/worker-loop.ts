/**
 * The loop of one worker (a virtual user): take a permit, run its iteration, take the next, until
 * the permit source says DONE.
 */
import { DONE, WAITING, type PermitSource } from '../schedule/permit-source.js';
import type { IterationRunner } from './iteration.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** What workers run: the YAML scenario graph's iterations, or a TypeScript scenario's. */
export type Iterations = Pick<IterationRunner, 'setup' | 'run'>;

/**
 * One worker: takes permits and runs iterations until the source says DONE (or from the start,
 * when its setup says it ends: no feeder record was left for it); rejects when an
 * iteration fails on a bug. Callbacks, not an async loop, for the reason iteration.ts gives. An
 * iteration that ends before run() returns (nothing was sent) lets the event loop turn before
 * the next one, so a worker whose every iteration ends at once cannot starve the timers that
 * stop the run.
 */
export function work(vu: VirtualUser, runner: Iterations, source: PermitSource): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail: (error: unknown) => void = reject;
    let running = false;
    let endedEarly = false;
    const begin = (intended: number): void => {
      if (intended === DONE) {
        resolve();
        return;
      }
      vu.busy = true;
      running = true;
      endedEarly = false;
      try {
        runner.run(vu, intended, callbacks);
      } catch (error) {
        fail(error);
        return;
      } finally {
        running = false;
      }
      if (endedEarly) setImmediate(next);
    };
    const next = (): void => {
      vu.busy = false;
      const taken = source.take(begin);
      if (taken !== WAITING) begin(taken);
    };
    const callbacks = {
      ended: (): void => {
        if (running) endedEarly = true;
        else next();
      },
      failed: fail,
    };
    vu.busy = true;
    runner.setup(vu).then((goesOn) => (goesOn ? next() : resolve()), fail);
  });
}
