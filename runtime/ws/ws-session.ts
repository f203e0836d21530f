/**
 * WebSocket sessions (spec §1 rule 9): an endpoint whose url is ws:// or wss:// runs, per permit,
 * one session of the `ws` package:
 *
 *   (a) connect: the handshake must answer 101; placeholders, headers, auth and subprotocols apply
 *   (b) for each message: send it as a text or binary frame, wait for the response frame (the
 *       first frame received after the send), wait `message_interval` if set
 *   (c) send a close frame (1000) and wait for the server's
 *   (d) record the session: one request of its endpoint, with its kind, handshake status and
 *       duration, plus the WebSocket metrics
 *
 * Each wait of (a), (b) and (c) has its own deadline, the endpoint's `timeout`, enforced by the
 * segment's deadline sweep through `vu.session` (as for HTTP requests); the pauses have none, but
 * a hard stop cuts them too. A session is never retried: replaying it would be a new session.
 *
 * Timings (µs): ws_connecting = open − start; ws_message_rtt = reply − send, per message;
 * ws_session_duration = end − start, start being just before the handshake request and end the
 * close acknowledgement (or the failure).
 *
 * Compiled once per endpoint (compiled-session.ts); a session allocates its socket, its listeners
 * and one promise per wait, which is small beside the TCP connection and handshake it costs.
 */
import type { EndpointPlan } from '../../dsl/plan/endpoint-plan.js';
import { NO_TOKEN, type Authorization, type AuthProvider } from '../auth/auth-provider.js';
import { classifyError, type ErrorKind } from '../failure/error-kind.js';
import type { Recorder } from '../metrics/recorder.js';
import { runExtractors } from '../vars/extract.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import type { SessionOutcome, SessionRunner } from '../worker/iteration.js';
import type { VirtualUser } from '../worker/virtual-user.js';
import { CompiledSession, type SessionPayload } from './compiled-session.js';
import { SessionSocket } from './session-socket.js';

/** What sessions need from their segment. */
export interface SessionDeps {
  readonly endpoints: readonly EndpointPlan[];
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly auth: AuthProvider | undefined;
  readonly insecure: boolean;
}

/** The session runner of a plan; undefined when no endpoint is a WebSocket endpoint. */
export function createSessionRunner(deps: SessionDeps): SessionRunner | undefined {
  if (!deps.endpoints.some((e) => e.protocol === 'ws')) return undefined;
  const runner = new WsSessionRunner(deps);
  return (vu, endpoint) => runner.run(vu, endpoint);
}

/** Runs the sessions of a segment's WebSocket endpoints. */
class WsSessionRunner {
  readonly #deps: SessionDeps;
  readonly #sessions: readonly (CompiledSession | undefined)[];

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.#sessions = deps.endpoints.map((e) =>
      e.protocol === 'ws' ? new CompiledSession(e) : undefined,
    );
  }

  /** One session of endpoint `index`. */
  async run(vu: VirtualUser, index: number): Promise<SessionOutcome> {
    const session = this.#sessions[index];
    if (session === undefined) return this.#unsent(index, 'invalid_request', undefined);
    const authorization = await this.#authorization(session, vu);
    // The OAuth 2.0 provider gave up and the run is stopping: nothing is sent or counted (as HTTP).
    if (authorization === NO_TOKEN) return { ok: false, status: 0, error: 'aborted' };
    const target = session.target(vu.vars, vu.random, authorization);
    if (target === undefined) return this.#unsent(index, 'missing_variable', vu.vars);
    const { recorder, now } = this.#deps;
    const startUs = now();
    let socket: SessionSocket;
    try {
      socket = new SessionSocket(target, {
        subprotocols: session.subprotocols,
        insecure: this.#deps.insecure,
        timeoutMs: session.timeoutMs,
        keepHeaders: session.keepHeaders,
        keepReply: session.keepReply,
        now,
        onFrame: (bytes) => recorder.recordWsMessage(index, false, bytes),
      });
    } catch (error) {
      // An invalid url or header value: ws throws before anything is sent.
      const kind = classifyError(error);
      return this.#unsent(index, kind === 'other' ? 'invalid_request' : kind, undefined);
    }
    vu.session = socket;
    vu.deadlineUs = startUs + session.timeoutMs * 1000;
    let kind: ErrorKind | undefined;
    try {
      kind = await this.#converse(session, socket, vu);
    } finally {
      vu.session = undefined;
      vu.deadlineUs = 0;
      socket.destroy();
    }
    const connectUs = socket.openedAtUs < 0 ? -1 : socket.openedAtUs - startUs;
    recorder.recordWsSession(index, socket.status, kind, connectUs, startUs, now());
    return { ok: kind === undefined, status: socket.status, error: kind };
  }

  /** The flow once the handshake is sent: open, messages and replies, pauses, close. */
  async #converse(
    session: CompiledSession,
    socket: SessionSocket,
    vu: VirtualUser,
  ): Promise<ErrorKind | undefined> {
    const { recorder, now } = this.#deps;
    const timeoutUs = session.timeoutMs * 1000;
    if (!(await socket.opened())) return socket.failure;
    if (session.keepHeaders) {
      const failed = runExtractors(session.extract, undefined, socket.headers, vu.vars);
      if (failed !== undefined) return failed;
    }
    let missing = false;
    for (let i = 0; i < session.messageCount; i++) {
      const payload = session.message(i, vu.vars, vu.random);
      if (payload === undefined) {
        missing = true;
        break;
      }
      const sentUs = now();
      vu.deadlineUs = sentUs + timeoutUs;
      socket.send(payload);
      recorder.recordWsMessage(session.index, true, payloadBytes(payload));
      if (!(await socket.reply())) return socket.failure ?? 'ws_abnormal_close';
      vu.deadlineUs = 0;
      recorder.recordWsRtt(session.index, socket.replyAtUs - sentUs);
      if (session.keepReply) {
        const failed = runExtractors(session.extract, socket.replyText, socket.headers, vu.vars);
        if (failed !== undefined) return failed;
      }
      if (i === session.messageCount - 1) socket.flowDone();
      if (session.intervalMs > 0 && !(await socket.pause(session.intervalMs)))
        return socket.failure;
    }
    if (session.messageCount === 0) socket.flowDone();
    vu.deadlineUs = now() + timeoutUs;
    await socket.close();
    return socket.failure ?? (missing ? 'missing_variable' : undefined);
  }

  /** The provider's Authorization value, unless the endpoint sets its own header. */
  async #authorization(session: CompiledSession, vu: VirtualUser): Promise<Authorization> {
    const auth = this.#deps.auth;
    if (auth === undefined || session.ownAuthorization) return undefined;
    const value = auth.authorization(vu.vars, vu.random);
    return typeof value === 'object' ? await value : value;
  }

  /** A session not begun; `missing` holds the variables when one of them had no value. */
  #unsent(index: number, kind: ErrorKind, missing: VariableStore | undefined): SessionOutcome {
    this.#deps.recorder.recordUnsent(kind, unsentCause(this.#deps.endpoints[index]!, missing));
    return { ok: false, status: 0, error: kind };
  }
}

/** Bytes a message puts on the wire as payload. */
function payloadBytes(payload: SessionPayload): number {
  return typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
}
