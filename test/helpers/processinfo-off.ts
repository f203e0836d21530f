/**
 * Loaded into every test process (.taprc `node-arg`), after tap's own @tapjs/processinfo, which
 * records process trees and every loaded module for tap's coverage and `--changed`; this suite
 * uses neither (coverage is c8's, with NODE_V8_COVERAGE: `npm run coverage`). It costs twice:
 * - it hooks every spawn (through the process-on-spawn package) so that each child Node loads it
 *   too, which roughly doubled the start of each spawned barrage and of every child barrage
 *   starts. Removing the hook leaves the children as users run them.
 * - its module hook reads each module the test loads once more from disk and measures its lines:
 *   about a CPU-second a test file. Its `fakeMains` list names the files it skips; an `includes`
 *   that is always true skips them all. (On Node 22 the hook runs in a loader thread of its own,
 *   which this cannot reach: there it costs what it costs.)
 */
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

const SINGLETON = Symbol.for('process-on-spawn@*:singletonId');

/** process-on-spawn's state: the listeners that edit each spawn's options. */
interface SpawnHooks {
  listeners: unknown[];
}

const hooks = (globalThis as unknown as Record<symbol, SpawnHooks | undefined>)[SINGLETON];
if (hooks !== undefined) hooks.listeners.length = 0;

/** The processinfo module tap's `--import` loaded, so that its own module instance is reached. */
const importArg = process.execArgv.find((arg) => /processinfo[\\/].*import\.mjs$/.test(arg));
if (importArg !== undefined) {
  const importPath = importArg.replace(/^--import=(file:\/\/)?/, '');
  const getMain = pathToFileURL(`${dirname(importPath)}/get-main.js`).href;
  const { fakeMains } = (await import(getMain)) as { fakeMains: string[] };
  fakeMains.includes = () => true;
}
