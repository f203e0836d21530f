/**
 * Globals deleted from every context that runs a scenario's code, before any of it runs (the
 * options reader's and each virtual user's: sandbox/isolate/remove-globals.ts). WebAssembly: a
 * Memory lives outside the V8 heap that isolated-vm's memory limit counts, and one grew a scripted
 * child to 7.3 GiB against a limit of 128 MB. (ArrayBuffers are counted by the limit;
 * Atomics.wait is cut by the CPU limit.)
 */

/** The globals a scenario never sees. */
export const REMOVED_GLOBALS = ['WebAssembly'] as const;
