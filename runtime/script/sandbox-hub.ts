/**
 * The hub of a segment's isolate, host side (sandbox.ts): a context of its own that holds no user
 * code, built from the compiled hub (sandbox/isolate/hub.ts), with the data files' views
 * (shared-data-tables.ts).
 */
import type { IsolatedVm } from '../../native/isolated-vm.js';
import type { SharedData } from '../../model/plan/shared-data.js';
import { isolateSource } from '../../sandbox/isolate-source.js';
import { sharedTables } from './shared-data-tables.js';

export /** The hub's functions, host side (they keep its context alive). */
interface Hub {
  readonly add: IsolatedVm.Reference;
  readonly pump: IsolatedVm.Reference;
  readonly take: IsolatedVm.Reference;
  readonly post: IsolatedVm.Reference;
  /** The data files' records as the hub's views (shared-data-tables.ts). */
  readonly data: IsolatedVm.Reference;
}

/** The hub's functions (sandbox/isolate/hub.ts) and the shared data's views, in a context of their own. */
export function createHub(
  isolate: IsolatedVm.Isolate,
  cpuMs: number,
  shared: readonly SharedData[],
): Hub {
  const context = isolate.createContextSync();
  const handles = context.evalClosureSync(isolateSource('hub'), [], {
    result: { reference: true },
    timeout: cpuMs,
  });
  const data = sharedTables(context, shared);
  const handle = (i: number): IsolatedVm.Reference => handles.getSync(i, { reference: true });
  const hub = { add: handle(0), pump: handle(1), take: handle(2), post: handle(3), data };
  handles.release();
  return hub;
}
