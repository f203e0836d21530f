/**
 * `--http-debug` / `http_debug:` (docs/configuration.md, HTTP debug log): which requests the run
 * writes out, where, and the bounds that keep a failing run from filling a disk. Plain data.
 */

/** Which requests are written: those counted in http_req_failed, or every one. */
export type HttpDebugRequests = 'failed' | 'all';

/** The requests `--http-debug` may select, as the flag and the key spell them. */
export const HTTP_DEBUG_REQUESTS = [
  'failed',
  'all',
] as const satisfies readonly HttpDebugRequests[];

/** The file written to stderr instead of a path. */
export const HTTP_DEBUG_STDERR = '-';

/** The HTTP debug log of a run. */
export interface HttpDebugPlan {
  readonly requests: HttpDebugRequests;
  /** The NDJSON file (relative to the working folder), or HTTP_DEBUG_STDERR. */
  readonly file: string;
  /** Bytes written in all; lines past it are dropped and counted. */
  readonly maxBytes: number;
  /** Lines written a second per process; lines past it are dropped and counted. */
  readonly perSecond: number;
}
