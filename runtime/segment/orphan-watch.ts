/**
 * A thread of a scripted segment's child process (child-entry.ts starts it), and of the type
 * check's (dsl/script/type-check-entry.ts, by its built name), that kills the process once its
 * parent is gone. The child's own thread cannot be relied on for that: a batch of
 * script code may hold it for up to the run's timeout, and a parent killed by SIGKILL runs no hook
 * and may leave the IPC channel's end unnoticed until then. The parent's pid changes when the
 * process is handed to another (init or a subreaper), so polling it is enough: a scenario never
 * outlives barrage by more than one poll. An entry point, like child-entry.ts, so it may touch
 * `process`.
 */
import { workerData } from 'node:worker_threads';

/** How often the parent's pid is read, ms. */
const POLL_MS = 200;

const parent = workerData as number;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, POLL_MS);
