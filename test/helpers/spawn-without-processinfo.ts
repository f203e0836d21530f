/**
 * Loaded into every test process (.taprc `node-arg`), after tap's own @tapjs/processinfo: that
 * module hooks every spawn (through the process-on-spawn package) so that each child Node loads
 * it too, to record process trees for tap's coverage and `--changed`, which this suite does not
 * use (coverage is measured with c8 and NODE_V8_COVERAGE: `npm run coverage`). Its loader reads
 * every module a child loads, which roughly doubled the start of each spawned barrage and of
 * every child barrage starts. Removing the hook leaves the children as users run them.
 */
const SINGLETON = Symbol.for('process-on-spawn@*:singletonId');

/** process-on-spawn's state: the listeners that edit each spawn's options. */
interface SpawnHooks {
  listeners: unknown[];
}

const hooks = (globalThis as unknown as Record<symbol, SpawnHooks | undefined>)[SINGLETON];
if (hooks !== undefined) hooks.listeners.length = 0;
