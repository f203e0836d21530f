/**
 * The records host and isolate exchange through the hub (runtime/script/sandbox.ts, hub.ts):
 * flat arrays of primitives, [vu, kind, a, b, c] (five values wide), but RESPONSE: ten,
 * [vu, kind, a, b, c, d, e, f, g, h]. Kinds host → isolate: RUN, OK, RESPONSE, FAILED, SETUP,
 * EVENT, TEARDOWN; isolate → host: START, END, LOG (their values in bootstrap.ts's comment).
 */
export const RECORD = {
  RUN: 0,
  OK: 1,
  RESPONSE: 2,
  FAILED: 3,
  SETUP: 4,
  EVENT: 5,
  TEARDOWN: 6,
  START: 0,
  END: 1,
  LOG: 2,
} as const;

/** LOG records a take() carries at most; past them the hub counts them in one record (a, b ''). */
export const MAX_LOGS_PER_TAKE = 200;
/** Values in a record (isolate → host: always). */
export const RECORD_WIDTH = 5;
/** Values in a RESPONSE record. */
export const RESPONSE_WIDTH = 10;

/** Values in a host → isolate record of this kind. */
export function inboundWidth(kind: number): number {
  return kind === RECORD.RESPONSE ? RESPONSE_WIDTH : RECORD_WIDTH;
}
