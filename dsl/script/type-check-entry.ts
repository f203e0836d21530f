/**
 * Child-process entry that type-checks a scenario (type-check.ts): type-check-process.ts starts it
 * with the scenario's paths as its one argument, and the problems leave as JSON on stdout. A child
 * of its own so that barrage's process never holds TypeScript (about 100 MB of RSS once it has
 * checked a program) through a run, and so that the check overlaps the options reader's child.
 * Like cli/bin.ts it is an entry point, so it may touch `process`.
 *
 * It must not outlive barrage: the check holds its one thread for as long as TypeScript takes, so
 * neither a closed pipe nor an IPC disconnect would be read until it ends. A thread of its own
 * watches the parent instead, as a scripted segment's child does: dist/orphan-watch.js (built
 * from runtime/segment/orphan-watch.ts, next to this entry in the flat dist/) kills the process
 * once its parent's pid changes, within one poll of barrage's end, SIGKILL included.
 */
import nodeModule from 'node:module';
import { Worker } from 'node:worker_threads';
import { typeCheckScenario, type TypeCheckInput } from './type-check.js';

// As cli/bin.ts does: V8's code for TypeScript's 9 MB, kept on disk, saves a third of the check.
nodeModule.enableCompileCache();
new Worker(new URL('./orphan-watch.js', import.meta.url), { workerData: process.ppid }).unref();
const input = JSON.parse(process.argv[2] ?? '') as TypeCheckInput;
process.stdout.write(JSON.stringify(await typeCheckScenario(input)));
