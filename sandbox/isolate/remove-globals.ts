/**
 * Deletes the globals a scenario never sees (sandbox/removed-globals.ts) from the context it runs
 * in, before any of the scenario's code runs.
 */
import { REMOVED_GLOBALS } from '../removed-globals.js';

export function removeGlobals(): void {
  for (const name of REMOVED_GLOBALS) Reflect.deleteProperty(globalThis, name);
}
