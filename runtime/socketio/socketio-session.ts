/**
 * Socket.IO sessions (docs/socketio.md): an endpoint with `socketio:` runs, per permit, one session
 * of the official `socket.io-client`:
 *
 *   (a) connect: the Engine.IO connection (WebSocket only by default), then the namespace with the
 *       auth payload and query; socketio_connecting spans both, to the namespace's `connect`
 *   (b) its steps, in order:
 *       emit     emit an event (its data as one argument); with `ack`, wait for the
 *                acknowledgement its match selects (socketio_ack_duration: emit → ack)
 *       receive  wait for the first event of that name its match selects (a welcome, a push)
 *       listen   keep the session open for a while, taking the events its match selects
 *       pause    wait, events queueing meanwhile
 *   (c) disconnect
 *   (d) record the session: one request of its endpoint (as a WebSocket session), its duration,
 *       and the Socket.IO counts; a failed step is named in the step failures
 *
 * The client answers Engine.IO's heartbeats, so a session lasts as long as its steps. Every wait
 * has its own deadline (the step's timeout, else the endpoint's) enforced by the segment's
 * deadline sweep through `vu.session`, as for WebSocket sessions; a stop ends pauses and listens,
 * and a session then skipping a step that emits or waits is `interrupted`, as WebSocket ones are.
 */
import type { EndpointPlan, ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import { socketioStepLabel } from '../../model/plan/socketio-plan.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { handshakeAuthorization, NO_TOKEN, type AuthProvider } from '../auth/auth-provider.js';
import { tlsConnectOptions, type ConnectionSettings } from '../http/connect-options.js';
import type { Recorder } from '../metrics/recorder.js';
import type { VirtualUser } from '../user/virtual-user.js';
import { runExtractors } from '../vars/extract.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import { frameText } from '../ws/frame-match.js';
import type { SessionOutcome, SessionRunner } from '../ws/session-runner.js';
import type { Frame } from '../ws/session-socket.js';
import { CompiledSocketio, renderData, type CompiledSocketioStep } from './compiled-socketio.js';
import { frameOf, SocketioSocket } from './socketio-socket.js';

/** What sessions need from their segment. */
export interface SocketioDeps {
  readonly endpoints: readonly EndpointPlan[];
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly auth: AuthProvider | undefined;
  /** The run's TLS settings (`tls:`, `insecure`). */
  readonly connection: Pick<ConnectionSettings, 'insecure' | 'tls'>;
}

/** The Socket.IO session runner of a plan; undefined when no endpoint is a Socket.IO endpoint. */
export function createSocketioRunner(deps: SocketioDeps): SessionRunner | undefined {
  if (!deps.endpoints.some((e) => e.protocol === 'socketio')) return undefined;
  return new SocketioRunner(deps);
}

/** One session under way. */
interface Live {
  readonly session: CompiledSocketio;
  readonly socket: SocketioSocket;
  readonly vu: VirtualUser;
}

/** Runs the sessions of a segment's Socket.IO endpoints. */
class SocketioRunner implements SessionRunner {
  readonly #deps: SocketioDeps;
  readonly #sessions: readonly (CompiledSocketio | undefined)[];
  readonly #live = new Set<SocketioSocket>();
  #stopping = false;

  constructor(deps: SocketioDeps) {
    this.#deps = deps;
    this.#sessions = deps.endpoints.map((e) =>
      e.protocol === 'socketio' ? new CompiledSocketio(e) : undefined,
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
    // The OAuth 2.0 provider gave up and the run is stopping: nothing is sent or counted.
    if (authorization === NO_TOKEN) return { ok: false, status: 0, error: 'aborted' };
    const target = session.target(vu.vars, vu.random, authorization);
    if (target === undefined) return this.#unsent(index, 'missing_variable', vu.vars);
    const { recorder, now } = this.#deps;
    const startUs = now();
    recorder.recordCount(FIGURE.socketio_sessions, index);
    const socket = new SocketioSocket({
      ...target,
      path: session.plan.path,
      transports: session.plan.transports,
      tls: tlsConnectOptions(this.#deps.connection, session.endpoint.origin),
      timeoutMs: session.endpoint.timeoutMs,
      now,
      onEvent: () => recorder.recordCount(FIGURE.socketio_events_received, index),
    });
    vu.session = socket;
    vu.deadlineUs = startUs + session.endpoint.timeoutMs * 1000;
    this.#live.add(socket);
    let kind: ErrorKind | undefined;
    try {
      kind = await this.#converse({ session, socket, vu }, startUs);
    } finally {
      this.#live.delete(socket);
      vu.session = undefined;
      vu.deadlineUs = 0;
      socket.destroy();
    }
    const status = socket.transport === undefined ? 0 : socket.transport === 'polling' ? 200 : 101;
    const endUs = now();
    recorder.recordSession(index, { status, kind }, endUs - startUs, endUs, socket);
    recorder.recordTrend(FIGURE.socketio_session_duration, index, endUs - startUs);
    return { ok: kind === undefined, status, error: kind };
  }

  /** The session once its connection is opening: connect, its steps, disconnect. */
  async #converse(live: Live, startUs: number): Promise<ErrorKind | undefined> {
    const { session, socket } = live;
    if (!(await socket.opened())) return socket.failure;
    this.#deps.recorder.recordTrend(
      FIGURE.socketio_connecting,
      session.endpoint.index,
      socket.openedAtUs - startUs,
    );
    live.vu.deadlineUs = 0;
    let missing = false;
    // A stop that skips a step which emits or waits, or ends a listen early, leaves the session
    // unfinished: interrupted, not a success. (A pause it ends early loses nothing.)
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
          `in endpoint ${session.endpoint.name}, ${socketioStepLabel(session.plan.steps, i)}`,
        );
        return failed;
      }
      if (i === session.lastWait) socket.flowDone();
    }
    socket.close();
    return (
      socket.failure ?? (missing ? 'missing_variable' : interrupted ? 'interrupted' : undefined)
    );
  }

  /** One step; the error kind when it failed (missing_variable: a placeholder had no value). */
  async #step(live: Live, step: CompiledSocketioStep): Promise<ErrorKind | undefined> {
    const { session, socket, vu } = live;
    const { recorder, now } = this.#deps;
    const index = session.endpoint.index;
    switch (step.kind) {
      case 'emit': {
        const args = renderData(step.data, vu.vars, vu.random);
        const test = step.ack?.test(vu.vars, vu.random);
        if (args === undefined || (step.ack !== undefined && test === undefined))
          return 'missing_variable';
        recorder.recordCount(FIGURE.socketio_events_sent, index);
        if (test === undefined) {
          socket.emit(step.event, args);
          return undefined;
        }
        const sentUs = now();
        let acked: Frame | undefined;
        socket.emit(step.event, args, (...ackArgs: unknown[]) => {
          acked = frameOf(ackArgs, now(), 0);
          socket.poke();
        });
        const frame = await this.#wait(live, step.timeoutMs, sentUs, () => socket.ack(() => acked));
        if (frame === undefined) return socket.failure ?? 'ws_abnormal_close';
        recorder.recordTrend(FIGURE.socketio_ack_duration, index, frame.atUs - sentUs);
        if (!test(frame)) return 'check_failed';
        return this.#extract(live, frame, step.extract);
      }
      case 'receive': {
        const test = step.match.test(vu.vars, vu.random);
        if (test === undefined) return 'missing_variable';
        const frame = await this.#wait(live, step.timeoutMs, now(), () =>
          socket.take(step.event, test),
        );
        if (frame === undefined) return socket.failure ?? 'ws_abnormal_close';
        return this.#extract(live, frame, step.extract);
      }
      case 'listen': {
        const test = step.match.test(vu.vars, vu.random);
        if (test === undefined) return 'missing_variable';
        return (await socket.listen(step.durationMs, step.event, test, () => undefined))
          ? undefined
          : socket.failure;
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

  /** An event (an ack) a wait took, read by the endpoint's and the step's extractors. */
  #extract(live: Live, frame: Frame, extract: readonly ExtractorPlan[]): ErrorKind | undefined {
    const own = live.session.endpoint.extract;
    if (frame.binary || (own.length === 0 && extract.length === 0)) return undefined;
    const text = frameText(frame);
    return (
      runExtractors(own, text, null, live.vu.vars, live.vu.random) ??
      runExtractors(extract, text, null, live.vu.vars, live.vu.random)
    );
  }

  /** A session not begun; `missing` holds the variables when one of them had no value. */
  #unsent(index: number, kind: ErrorKind, missing: VariableStore | undefined): SessionOutcome {
    this.#deps.recorder.recordUnsent(kind, unsentCause(this.#deps.endpoints[index]!, missing));
    return { ok: false, status: 0, error: kind };
  }
}
