/**
 * The heap limit of a scripted segment's isolate (runtime/script/sandbox.ts): a base for the
 * scenario's own code and data, and an allowance for each virtual user's context, so that the
 * concurrency the user asked for fits (`barrage validate` says the figure). A context built by the
 * bootstrap measured 286 KB of V8 heap (a bare V8 context alone 171 KB; docs/performance.md,
 * "Scripted virtual users"); the allowance is about 1.75 × that, for what an iteration holds
 * while it runs (its responses, its promises).
 *
 *   heap_mb(vus) = BASE_MB + ⌈vus × MB_PER_VU⌉
 */

/** The isolate's heap for the scenario's own code and data, MB. */
export const ISOLATE_BASE_MB = 128;

/** The heap allowed each virtual user's context, MB. */
export const ISOLATE_MB_PER_VU = 0.5;

/** The heap limit, MB, of an isolate running `vus` virtual users. */
export function isolateHeapMb(vus: number): number {
  return ISOLATE_BASE_MB + Math.ceil(vus * ISOLATE_MB_PER_VU);
}
