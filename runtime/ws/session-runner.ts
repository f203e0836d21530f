/**
 * The contract between iterations (worker/iteration.ts, a script's ws.session) and the WebSocket
 * session runner (ws-session.ts): how a session is run for a virtual user and how it ended.
 */
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** How a WebSocket session ended. */
export interface SessionOutcome {
  readonly ok: boolean;
  /** The handshake's HTTP status (101 when it was accepted), 0 when none came. */
  readonly status: number;
  /** The error kind when it failed. */
  readonly error: ErrorKind | undefined;
}

/** Runs WebSocket endpoints' sessions. */
export interface SessionRunner {
  /** One session of a virtual user. */
  run(vu: VirtualUser, endpoint: number, intendedUs: number): Promise<SessionOutcome>;
  /** The run is ending: pauses and listens end now, and sessions close after the step under way. */
  stop(): void;
}
