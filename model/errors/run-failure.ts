/**
 * Why a run ended as failed before its plan did (plain data: it crosses threads and processes in a
 * segment's outcome). The code says which kind of failure it was; the message is the line the user
 * reads after "the run stopped: " (no secret: the reports redact it again). The raw result file
 * keeps the message alone (its `fatal`), as it always has.
 */

/** The kinds of run failure. */
export type RunFailureCode =
  /** OAuth 2.0 gave up: its token endpoint failed every try (runtime/auth/oauth2-provider.ts). */
  | 'auth_gave_up'
  /** A TypeScript scenario called exec.test.abort(reason) (k6's test abort). */
  | 'test_aborted'
  /** A TypeScript scenario's setup() threw, was cut, or returned what cannot be copied. */
  | 'setup_failed'
  /**
   * A TypeScript scenario's isolate passed its heap limit (model/plan/isolate-heap.ts): the
   * iterations in it failed and the run stopped, within its grace.
   */
  | 'script_memory'
  /** A segment threw (a bug): it reported its error and what it had collected. */
  | 'segment_error'
  /** A segment's thread or process ended without an outcome (killed, out of memory, exited). */
  | 'segment_lost';

/** A run's failure: its kind and the line that says it. */
export interface RunFailure {
  readonly code: RunFailureCode;
  readonly message: string;
}
