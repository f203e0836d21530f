/**
 * A scenario's data files in a segment's isolate (docs/scenarios.md, "Shared data"): views over
 * the plan's SharedArrayBuffers, made once per isolate in the hub's context. isolated-vm hands a
 * SharedArrayBuffer to an isolate without a copy (the memory is shared), but counts its length
 * against the isolate's memory limit each time one crosses, so the buffers cross once, into the
 * hub, and the virtual users' contexts get the hub's views (shared-data-source.ts); the isolate's
 * limit is raised by their size, so that the limit still bounds what the scenario itself holds.
 */
import type { IsolatedVm } from '../../native/isolated-vm.js';
import type { SharedData } from '../../model/plan/shared-data.js';

/** Makes the views: [[key, fields, count, bytes, ends], …], key being kind + ':' + name. */
const VIEWS_SOURCE = `
return $0.map((t) => [t[0], t[1], t[2], new Uint8Array(t[3], t[4], t[5]), new Uint32Array(t[6], t[7], t[2])]);
`;

/** The views, as a Reference to an array of the hub's context. */
export function sharedTables(
  hub: IsolatedVm.Context,
  shared: readonly SharedData[],
): IsolatedVm.Reference {
  const list = shared.map((d) => [
    `${d.kind}:${d.name}`,
    [...d.fields],
    d.count,
    d.bytes.buffer,
    d.bytes.byteOffset,
    d.bytes.byteLength,
    d.ends.buffer,
    d.ends.byteOffset,
  ]);
  return hub.evalClosureSync(VIEWS_SOURCE, [list], {
    arguments: { copy: true },
    result: { reference: true },
  });
}

/** MiB the isolate's memory limit grows by: the buffers as isolated-vm counts them, whole. */
export function sharedMb(shared: readonly SharedData[]): number {
  let bytes = 0;
  for (const d of shared) bytes += d.bytes.buffer.byteLength + d.ends.buffer.byteLength;
  return Math.ceil(bytes / (1024 * 1024));
}
