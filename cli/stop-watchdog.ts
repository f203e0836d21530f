/**
 * The last resort behind a stop's grace (commands/run-stop.ts): a thread of its own, started by the
 * first stop signal, that ends the process when it is still there `deadline` after the grace — the
 * main thread, which writes the reports when the grace ends, did not get to it (held by work that
 * does not yield). A supervisor then sees barrage exit within a bound it can know, as it would
 * after its own SIGKILL, and the thread says why on stderr. It costs nothing before a signal and
 * holds the process open never (unref'd); the run's normal end stops it.
 */
import { Worker } from 'node:worker_threads';

/** Time the main thread has after the grace to write the reports before the watchdog ends it. */
export const WATCHDOG_MARGIN_MS = 5000;

// An eval'd worker (CommonJS or a module, as the process's flags say: getBuiltinModule suits both)
// that sleeps in Atomics.wait (no event loop needed) and reads the deadline (0: disarmed).
const SOURCE = `
const { workerData } = process.getBuiltinModule('node:worker_threads');
const { writeSync } = process.getBuiltinModule('node:fs');
const deadline = new Float64Array(workerData.deadline);
const nap = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  Atomics.wait(nap, 0, 0, 100);
  if (deadline[0] > 0 && Date.now() > deadline[0]) {
    try { writeSync(2, workerData.message); } catch {}
    process.kill(process.pid, 'SIGKILL');
  }
}
`;

/** A started watchdog. */
export interface StopWatchdog {
  /** Stops it: the reports were written in time. */
  disarm(): void;
}

/** Starts the watchdog, ending the process at `deadlineMs` (epoch ms) unless disarmed. */
export function startStopWatchdog(deadlineMs: number): StopWatchdog {
  const deadline = new Float64Array(new SharedArrayBuffer(8));
  deadline[0] = deadlineMs;
  const message =
    'barrage: the stop grace ended and the reports could not be written in time (the main thread did not answer): exiting\n';
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { deadline: deadline.buffer, message },
  });
  worker.unref();
  return {
    disarm: () => {
      deadline[0] = 0;
      void worker.terminate();
    },
  };
}
