/**
 * isolated-vm for the Node that is running. No one release has prebuilt binaries for every Node
 * barrage supports (6.2.0: Node 22 and 24; 7.0.1: Node 24 and 26), so both are dependencies under
 * aliases and the first that loads here is used (docs/install.md says why). Their JavaScript API
 * and typings are the same; nothing outside this file knows there are two.
 *
 * Loaded on first use, not at import: a command that runs no TypeScript scenario loads no native
 * module at all.
 */
import { createRequire } from 'node:module';
import type IsolatedVm from 'isolated-vm-7';

export type { IsolatedVm };

/** Newest first: on Node 24, where both have a binary, the newer release is used. */
const RELEASES = ['isolated-vm-7', 'isolated-vm-6'] as const;

const load = createRequire(import.meta.url);
let loaded: typeof IsolatedVm | undefined;

/** Neither release has a binary for this Node and platform (or neither is installed). */
export class IsolatedVmUnavailableError extends Error {
  readonly code = 'BARRAGE_NO_ISOLATED_VM';
}

/** The isolated-vm module that loads on this Node; throws IsolatedVmUnavailableError otherwise. */
export function isolatedVm(): typeof IsolatedVm {
  if (loaded !== undefined) return loaded;
  const reasons: string[] = [];
  for (const name of RELEASES) {
    try {
      loaded = load(name) as typeof IsolatedVm;
      return loaded;
    } catch (error) {
      // node-gyp-build's message names the Node, ABI and platform it looked for.
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      reasons.push(`${name}: ${message}`);
    }
  }
  throw new IsolatedVmUnavailableError(
    `TypeScript scenarios need isolated-vm, and no installed release loads on this Node ` +
      `(${reasons.join('; ')}). Install barrage with Node 22, 24 or 26 on a platform isolated-vm ` +
      `ships binaries for (docs/install.md).`,
  );
}
