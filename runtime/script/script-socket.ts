/**
 * The host side of a scenario's `ws.connect()` socket (docs/scenarios.md, WebSocket sockets): one
 * session over session-socket.ts, driven by the scenario's code instead of configured steps. Its
 * events go to the isolate in order through `emit` (the sandbox's event records): 'open', each
 * frame (by its seq, its text or an ArrayBuffer), timers firing, 'error' with the kind of a failure,
 * and 'close' with the close code last.
 *
 * Bounds, since the target and the scenario are both untrusted:
 * - frames: at most 1 MiB each (ws maxPayload); at most MAX_FRAMES_PER_TURN frames or
 *   MAX_BYTES_PER_TURN bytes cross to the isolate per turn of the event loop, past which the
 *   socket stops reading (TCP holds the server back) until the next turn: a flood slows down to
 *   what the scenario handles, and costs bounded memory, losing nothing;
 * - timers: at most MAX_TIMERS at once per socket, each at least MIN_TIMER_MS apart when repeated;
 * - the socket ends with its iteration, the run's end (closed) and a hard stop (cut).
 * `ws_message_rtt` is recorded for request(): from the send to the arrival of the frame its match
 * took, read from the arrival times the host kept (the isolate's own clock never is).
 */
import type { Recorder } from '../metrics/recorder.js';
import { setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import type { SessionOutcome } from '../ws/session-runner.js';
import type { SessionTarget } from '../ws/compiled-session.js';
import { SessionSocket, type Frame } from '../ws/session-socket.js';
import type { WsTransport } from '../ws/ws-transport.js';

/** Frames handed to the isolate in one turn of the event loop before the socket stops reading. */
export const MAX_FRAMES_PER_TURN = 1000;
/** Bytes of frames handed to the isolate in one turn before the socket stops reading. */
export const MAX_BYTES_PER_TURN = 4 * 1024 * 1024;
/** Timers of one socket at once. */
export const MAX_TIMERS = 100;
/** Shortest interval of setInterval. */
const MIN_TIMER_MS = 1;
/** Arrival times kept for round trips (the newest frames'). */
const ARRIVALS = 4096;

/** An event of the socket, for the isolate. */
export type SocketEmit = (type: string | number, payload: string | number | ArrayBuffer) => void;

/** What a script socket needs. */
export interface ScriptSocketDeps {
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** TLS settings and proxies of the connection. */
  readonly transport: WsTransport;
  /** The session's name's endpoint index. */
  readonly index: number;
  readonly name: string;
  readonly timeoutMs: number;
  /**
   * Longest delay of a timer, as of the scenario's other waits (sandbox/waiting-calls.ts): the
   * run's `timeout` when only `requests` bounds it, so `setInterval(fn, 1e12)` under `-n 1` fires.
   */
  readonly longestWaitMs: number;
  readonly subprotocols: readonly string[];
}

/** How a script socket ended, as the scenario's connect() resolves. */
export interface SocketResult extends SessionOutcome {
  readonly headers: Record<string, string>;
}

/** One socket of a scenario. */
export class ScriptSocket {
  readonly #deps: ScriptSocketDeps;
  /** The connection, once run() started it. */
  #socket: SessionSocket | undefined;
  /** close() or cut() came before the connection: it is never made. */
  #dropped = false;
  #emit: SocketEmit | undefined;
  readonly #early: [string | number, string | number | ArrayBuffer][] = [];
  readonly #timers = new Map<number, LongTimeout>();
  readonly #arrivals = new Float64Array(ARRIVALS);
  readonly #sends = new Map<number, number>();
  #marks = 0;
  #turnFrames = 0;
  #turnBytes = 0;
  #turnReset: NodeJS.Immediate | undefined;
  #startUs = 0;
  #failedAt: string | undefined;
  /** The run's stop closed it: the session is interrupted, not a success. */
  #interrupted = false;

  /** A socket not connected yet: its timers may start meanwhile. */
  constructor(deps: ScriptSocketDeps) {
    this.#deps = deps;
  }

  /** The connection: throws when the url or a header is invalid (nothing was sent). */
  #connect(target: SessionTarget): SessionSocket {
    const deps = this.#deps;
    this.#startUs = deps.now();
    return new SessionSocket(target, {
      subprotocols: deps.subprotocols,
      transport: deps.transport,
      timeoutMs: deps.timeoutMs,
      keepHeaders: true,
      now: deps.now,
      onFrame: (bytes) => deps.recorder.recordWsMessage(deps.index, false, bytes),
      onData: (frame) => this.#frame(frame),
    });
  }

  /** Where the events go; those emitted before are handed over first. */
  attach(emit: SocketEmit): void {
    this.#emit = emit;
    for (const [type, payload] of this.#early.splice(0)) emit(type, payload);
  }

  /**
   * The session: connect to `target`, then whatever the scenario does until the socket ends;
   * undefined when it was closed before it connected (nothing sent, no session counted).
   */
  async run(target: SessionTarget): Promise<SocketResult | undefined> {
    const { now, timeoutMs } = this.#deps;
    if (this.#dropped) {
      this.#clearTimers();
      return undefined;
    }
    const socket = (this.#socket = this.#connect(target));
    const handshake = setTimeout(() => socket.fail('ws_timeout'), timeoutMs);
    const opened = await socket.opened();
    clearTimeout(handshake);
    if (opened) {
      socket.flowDone();
      this.#event('open', 0);
      await socket.ended();
    }
    this.#clearTimers();
    const kind = socket.failure ?? (this.#interrupted ? 'interrupted' : undefined);
    if (kind !== undefined) {
      this.#event('error', kind);
      if (this.#failedAt !== undefined)
        this.#deps.recorder.recordWsStepFailure(kind, `in ${this.#deps.name}, ${this.#failedAt}`);
    }
    this.#event('close', socket.closeCode);
    const connectUs = socket.openedAtUs < 0 ? -1 : socket.openedAtUs - this.#startUs;
    this.#deps.recorder.recordWsSession(
      this.#deps.index,
      socket.status,
      kind,
      connectUs,
      this.#startUs,
      now(),
    );
    return {
      ok: kind === undefined,
      status: socket.status,
      error: kind,
      headers: headersOf(socket.headers),
    };
  }

  /** Sends a frame; [its mark for request(), the seq its reply must pass]; refused unless open. */
  send(data: string | ArrayBuffer): [number, number] {
    const socket = this.#socket;
    if (socket?.phase !== 'open')
      throw new Error("send(): the socket is not open (send from on('open') or later)");
    const payload = typeof data === 'string' ? data : Buffer.from(data);
    // Stamped before the frame is written: a thread descheduled right after the write would
    // otherwise stamp late and time a round trip shorter than the server's own service time.
    const sentUs = this.#deps.now();
    const after = socket.send(payload);
    this.#deps.recorder.recordWsMessage(
      this.#deps.index,
      true,
      typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length,
    );
    const mark = ++this.#marks;
    if (this.#sends.size >= ARRIVALS) this.#sends.clear();
    this.#sends.set(mark, sentUs);
    return [mark, after];
  }

  /** A request() or receive() took frame `seq`: counted, and a request's round trip recorded. */
  taken(mark: number, seq: number): void {
    const { recorder, index, now } = this.#deps;
    recorder.recordWsTaken(index, 1);
    const sentUs = this.#sends.get(mark);
    if (sentUs === undefined) return;
    this.#sends.delete(mark);
    const newest = this.#socket?.lastSeq ?? 0;
    const arrived = newest - seq < ARRIVALS ? this.#arrivals[seq % ARRIVALS]! : now();
    recorder.recordWsRtt(index, arrived - sentUs);
  }

  /** A wait of the scenario (`what`: "request()", "receive()") passed its timeout. */
  timedOut(what: string): void {
    this.#failedAt ??= what;
    this.#socket?.fail('ws_timeout');
  }

  /**
   * Starts timer `id` of the scenario: once, or every `ms` (ms < 0: the run's timeout), at most
   * the run's longest wait.
   */
  timer(id: number, ms: number, repeat: boolean): void {
    if (this.#timers.size >= MAX_TIMERS)
      throw new Error(`setTimeout()/setInterval(): at most ${MAX_TIMERS} timers per socket`);
    const asked = ms < 0 ? this.#deps.timeoutMs : repeat ? Math.max(MIN_TIMER_MS, ms) : ms;
    const delay = Math.min(asked, this.#deps.longestWaitMs);
    const fire = (): void => {
      if (repeat) this.#timers.set(id, setLongTimeout(fire, delay));
      else this.#timers.delete(id);
      this.#event('timer', id);
    };
    this.#timers.get(id)?.clear();
    this.#timers.set(id, setLongTimeout(fire, delay));
  }

  /** Stops timer `id`. */
  clearTimer(id: number): void {
    this.#timers.get(id)?.clear();
    this.#timers.delete(id);
  }

  /** Closes the socket with a close frame (the scenario's close(), the run's end). */
  close(code: number, reason: string): void {
    const socket = this.#socket;
    if (socket === undefined) this.#dropped = true;
    else if (socket.phase === 'connecting') socket.fail('aborted');
    else socket.startClose(code, reason);
  }

  /**
   * The run's stop: closes the socket (1001, going away, as a browser leaving the page does) and
   * counts its session as interrupted, since the scenario did not end it.
   */
  interrupt(): void {
    if (this.#socket?.phase === 'open') this.#interrupted = true;
    this.close(1001, '');
  }

  /** Cuts the socket (a hard stop). */
  cut(): void {
    if (this.#socket === undefined) this.#dropped = true;
    else this.#socket.fail('aborted');
  }

  #frame(frame: Frame): void {
    this.#arrivals[frame.seq % ARRIVALS] = frame.atUs;
    const data = frame.data;
    const payload = frame.binary
      ? data.buffer.slice(data.byteOffset, data.byteOffset + data.length)
      : data.toString('utf8');
    this.#event(frame.seq, payload as string | ArrayBuffer);
    this.#turnFrames++;
    this.#turnBytes += data.length;
    if (this.#turnFrames >= MAX_FRAMES_PER_TURN || this.#turnBytes >= MAX_BYTES_PER_TURN)
      this.#socket?.pauseReading();
    this.#turnReset ??= setImmediate(() => {
      this.#turnReset = undefined;
      this.#turnFrames = 0;
      this.#turnBytes = 0;
      this.#socket?.resumeReading();
    });
  }

  #event(type: string | number, payload: string | number | ArrayBuffer): void {
    if (this.#emit === undefined) this.#early.push([type, payload]);
    else this.#emit(type, payload);
  }

  #clearTimers(): void {
    for (const timer of this.#timers.values()) timer.clear();
    this.#timers.clear();
    if (this.#turnReset !== undefined) clearImmediate(this.#turnReset);
  }
}

/** The handshake response's headers, names lower case, repeated ones joined by ", ". */
function headersOf(raw: readonly Buffer[] | null): Record<string, string> {
  const headers = Object.create(null) as Record<string, string>;
  for (let i = 0; raw !== null && i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}
