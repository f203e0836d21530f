/**
 * WebSocket sessions (spec §1 rule 9; docs/configuration.md, WebSocket endpoints): an endpoint
 * whose url is ws:// or wss:// runs, per permit, one session of the `ws` package:
 *
 *   (a) connect: the handshake must answer 101; placeholders, headers, auth and subprotocols apply
 *   (b) its steps, in order:
 *       send     send a text or binary frame; with `reply`, wait for the first frame after it
 *                that the reply's match selects (ws_message_rtt: send → that frame's arrival)
 *       receive  wait for the first frame its match selects (a welcome, a push)
 *       listen   keep the session open for a while, taking every frame its match selects
 *       pause    wait, frames queueing meanwhile
 *   (c) send a close frame (1000) and wait for the server's
 *   (d) record the session: one request of its endpoint, with its kind, handshake status and
 *       duration, plus the WebSocket metrics; a failed step is named in the step failures
 *
 * Frames are matched in arrival order (session-socket.ts): each wait looks at them from where the
 * previous one stopped and skips those its match does not select. Every wait of (a), (b) and (c)
 * has its own deadline (the step's timeout, else the endpoint's), enforced by the segment's
 * deadline sweep through `vu.session` (as for HTTP requests); pauses and listens have none, but a
 * stop ends them (the session then closes) and a hard stop cuts a session at any point. A session
 * is never retried: replaying it would be a new session.
 *
 * Compiled once per endpoint (compiled-session.ts); a session allocates its socket, its listeners
 * and one promise per wait, which is small beside the TCP connection and handshake it costs.
 */
import type { EndpointPlan, ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import { stepLabel } from '../../model/plan/ws-session-plan.js';
import { handshakeAuthorization, NO_TOKEN, type AuthProvider } from '../auth/auth-provider.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { classifyError } from '../failure/error-kind.js';
import type { Recorder } from '../metrics/recorder.js';
import { runExtractors } from '../vars/extract.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import type { SessionOutcome, SessionRunner } from './session-runner.js';
import type { VirtualUser } from '../user/virtual-user.js';
import {
  CompiledSession,
  renderMessage,
  type CompiledStep,
  type SessionPayload,
} from './compiled-session.js';
import { frameText } from './frame-match.js';
import { SessionSocket, type Frame } from './session-socket.js';
import type { WsTransport } from './ws-transport.js';

/** What sessions need from their segment. */
export interface SessionDeps {
  readonly endpoints: readonly EndpointPlan[];
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly auth: AuthProvider | undefined;
  /** TLS settings and proxies of the sessions' connections. */
  readonly transport: WsTransport;
}

/** The session runner of a plan; undefined when no endpoint is a WebSocket endpoint. */
export function createSessionRunner(deps: SessionDeps): SessionRunner | undefined {
  if (!deps.endpoints.some((e) => e.protocol === 'ws')) return undefined;
  return new WsSessionRunner(deps);
}

/** One session under way. */
interface Live {
  readonly session: CompiledSession;
  readonly socket: SessionSocket;
  readonly vu: VirtualUser;
}

/** Runs the sessions of a segment's WebSocket endpoints. */
class WsSessionRunner implements SessionRunner {
  readonly #deps: SessionDeps;
  readonly #sessions: readonly (CompiledSession | undefined)[];
  readonly #live = new Set<SessionSocket>();
  #stopping = false;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.#sessions = deps.endpoints.map((e) =>
      e.protocol === 'ws' ? new CompiledSession(e) : undefined,
    );
  }

  stop(): void {
    this.#stopping = true;
    for (const socket of this.#live) socket.endPause();
  }

  async run(vu: VirtualUser, index: number): Promise<SessionOutcome> {
    const session = this.#sessions[index];
    if (session === undefined) return this.#unsent(index, 'invalid_request', undefined);
    const authorization = await handshakeAuthorization(
      this.#deps.auth,
      session.ownAuthorization,
      vu.vars,
      vu.random,
    );
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
        transport: this.#deps.transport,
        timeoutMs: session.timeoutMs,
        keepHeaders: session.keepHeaders,
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
    this.#live.add(socket);
    let kind: ErrorKind | undefined;
    try {
      kind = await this.#converse({ session, socket, vu });
    } finally {
      this.#live.delete(socket);
      vu.session = undefined;
      vu.deadlineUs = 0;
      socket.destroy();
    }
    const connectUs = socket.openedAtUs < 0 ? -1 : socket.openedAtUs - startUs;
    recorder.recordWsSession(index, socket.status, kind, connectUs, startUs, now());
    return { ok: kind === undefined, status: socket.status, error: kind };
  }

  /** The session once the handshake is sent: open, its steps, close. */
  async #converse(live: Live): Promise<ErrorKind | undefined> {
    const { session, socket, vu } = live;
    if (!(await socket.opened())) return socket.failure;
    if (session.keepHeaders) {
      const failed = runExtractors(session.extract, undefined, socket.headers, vu.vars, vu.random);
      if (failed !== undefined) return failed;
    }
    let missing = false;
    // A stop that skips a step which sends or waits for frames, or ends a listen early, leaves the
    // session unfinished: interrupted, not a success. (A pause it ends early loses nothing.)
    let interrupted = false;
    for (let i = 0; i < session.steps.length; i++) {
      const step = session.steps[i]!;
      if (this.#stopping) {
        interrupted = session.steps.slice(i).some((s) => s.kind !== 'pause');
        break;
      }
      const failed = await this.#step(live, step);
      if (this.#stopping && step.kind === 'listen') interrupted = true;
      if (failed === 'missing_variable') {
        missing = true;
        break;
      }
      if (failed !== undefined) {
        this.#deps.recorder.recordWsStepFailure(
          failed,
          `in endpoint ${session.name}, ${stepLabel(session.plannedSteps, i)}`,
        );
        return failed;
      }
      if (i === session.lastWait) socket.flowDone();
    }
    if (session.lastWait < 0) socket.flowDone();
    vu.deadlineUs = this.#deps.now() + session.timeoutMs * 1000;
    await socket.close();
    return (
      socket.failure ?? (missing ? 'missing_variable' : interrupted ? 'interrupted' : undefined)
    );
  }

  /** One step; the error kind when it failed (missing_variable: a placeholder had no value). */
  async #step(live: Live, step: CompiledStep): Promise<ErrorKind | undefined> {
    const { session, socket, vu } = live;
    const { recorder, now } = this.#deps;
    switch (step.kind) {
      case 'send': {
        const payload = renderMessage(step.message, vu.vars, vu.random);
        const test = step.reply?.test(vu.vars, vu.random);
        if (payload === undefined || (step.reply !== undefined && test === undefined))
          return 'missing_variable';
        const sentUs = now();
        const after = socket.send(payload);
        recorder.recordWsMessage(session.index, true, payloadBytes(payload));
        if (test === undefined) return undefined;
        const frame = await this.#wait(live, step.timeoutMs, sentUs, () =>
          socket.take(test, after),
        );
        if (frame === undefined) return socket.failure ?? 'ws_abnormal_close';
        recorder.recordWsRtt(session.index, frame.atUs - sentUs);
        return this.#taken(live, frame, step.extract);
      }
      case 'receive': {
        const test = step.match.test(vu.vars, vu.random);
        if (test === undefined) return 'missing_variable';
        const frame = await this.#wait(live, step.timeoutMs, now(), () => socket.take(test));
        if (frame === undefined) return socket.failure ?? 'ws_abnormal_close';
        return this.#taken(live, frame, step.extract);
      }
      case 'listen': {
        const test = step.match.test(vu.vars, vu.random);
        if (test === undefined) return 'missing_variable';
        const startUs = now();
        let frames = 0;
        const ok = await socket.listen(step.durationMs, test, () => frames++);
        recorder.recordWsListen(session.index, frames, now() - startUs);
        return ok ? undefined : socket.failure;
      }
      case 'pause':
        return (await socket.pause(step.durationMs)) ? undefined : socket.failure;
    }
  }

  /** A wait bounded by `timeoutMs` from `fromUs` (the deadline sweep cuts it as ws_timeout). */
  async #wait(
    live: Live,
    timeoutMs: number,
    fromUs: number,
    wait: () => Promise<Frame | undefined>,
  ): Promise<Frame | undefined> {
    live.vu.deadlineUs = fromUs + timeoutMs * 1000;
    const frame = await wait();
    live.vu.deadlineUs = 0;
    return frame;
  }

  /** A frame a wait took: counted, and read by the endpoint's and the step's extractors. */
  #taken(live: Live, frame: Frame, extract: readonly ExtractorPlan[]): ErrorKind | undefined {
    const { session, socket, vu } = live;
    this.#deps.recorder.recordWsTaken(session.index, 1);
    if (frame.binary || (!session.readsFrames && extract.length === 0)) return undefined;
    const text = frameText(frame);
    const own = session.readsFrames
      ? runExtractors(session.extract, text, socket.headers, vu.vars, vu.random)
      : undefined;
    return own ?? runExtractors(extract, text, socket.headers, vu.vars, vu.random);
  }

  /** The provider's Authorization value, unless the endpoint sets its own header. */
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
