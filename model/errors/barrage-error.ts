/**
 * Errors barrage itself raises while a run is under way, with one base class: each has a stable
 * `code` (never a message to match on, STYLE.md rule 6), which runtime/failure/error-kind.ts maps
 * to the error kind the reports count. The abort reasons among them are what a deadline or a stop
 * cuts an exchange, a WebSocket session or a backoff with (an Abortable's abort()).
 */

/** An error of barrage's own, with its stable code. */
export abstract class BarrageError extends Error {
  abstract readonly code: string;
}

/** Our own deadline: one per request, covering connect, headers and the whole body (`timeout`). */
export class RequestTimeoutError extends BarrageError {
  readonly code = 'BARRAGE_TIMEOUT';
  constructor() {
    super('request deadline passed');
  }
}

/** A stream endpoint went `idle_timeout` without an event or a chunk (`idle_timeout`). */
export class IdleTimeoutError extends BarrageError {
  readonly code = 'BARRAGE_IDLE_TIMEOUT';
  constructor() {
    super('stream idle timeout passed');
  }
}

/** A hard stop (a second Ctrl+C, the end of the grace) cut what was in flight (`aborted`). */
export class HardStopError extends BarrageError {
  readonly code = 'BARRAGE_ABORTED';
  constructor() {
    super('run stopped');
  }
}

/** Why something in flight was cut short. */
export type AbortReason = RequestTimeoutError | IdleTimeoutError | HardStopError;

/**
 * Something in flight that a deadline or a stop can cut (a WebSocket session, a backoff, a think
 * pause): `reason` is an AbortReason, or the graceful stop's own error for a pause it ends.
 */
export interface Abortable {
  abort(reason: Error): void;
}
