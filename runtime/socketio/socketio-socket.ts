/**
 * The connection of one Socket.IO session, over the official `socket.io-client`, as states the
 * session awaits. The client (its Engine.IO socket) answers the server's pings itself, so a
 * session lives as long as its steps; it never reconnects (`reconnection: false`) and opens its
 * own Engine.IO connection (`forceNew`). Events only move the state and wake the one waiter; the
 * first failure is kept (`failure`) and ends the connection.
 *
 *   phase       event                                                → phase   failure
 *   connecting  the namespace's `connect`                             → open
 *   connecting  connect_error from the transport (refused, dns, tls)  → failed  that kind
 *   connecting  connect_error from the server (its middleware)        → failed  ws_handshake
 *   open        an event                                              → open    counted, queued
 *   open        `disconnect` by the server once the last wait is over → closed
 *   open        any other `disconnect` (transport close, ping timeout) → failed ws_abnormal_close
 *   any live    abort: deadline passed / hard stop                    → failed  ws_timeout / aborted
 *
 * Events wait in a queue, in arrival order, for the session's steps: a wait takes the first one of
 * its name that its match selects and leaves the others. The queue holds at most MAX_QUEUED
 * events; past it the oldest are dropped, so a server flooding events costs bounded memory.
 */
import { io, type Socket } from 'socket.io-client';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { Abortable } from '../../model/errors/barrage-error.js';
import type { SocketioTransport } from '../../model/plan/socketio-plan.js';
import { classifyError } from '../failure/error-kind.js';
import type { TlsConnectOptions } from '../http/connect-options.js';
import { setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import type { Frame } from '../ws/session-socket.js';

/** Events kept for the session's next wait. */
export const MAX_QUEUED = 1000;

/** Where a session's connection is in its life. */
export type SocketioPhase = 'connecting' | 'open' | 'closed' | 'failed';

/** An event received: its name, and its first argument as a frame a match reads (JSON text). */
export interface ReceivedEvent {
  readonly event: string;
  readonly frame: Frame;
}

/** Where and how a session connects. */
export interface SocketioTarget {
  /** origin + namespace */
  readonly url: string;
  readonly path: string;
  readonly transports: readonly SocketioTransport[];
  readonly auth: Record<string, unknown> | undefined;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly tls: TlsConnectOptions;
  readonly timeoutMs: number;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** Every event received. */
  readonly onEvent: () => void;
}

/** An event's (an ack's) first argument as the frame a match and the extractors read. */
export function frameOf(args: readonly unknown[], atUs: number, seq: number): Frame {
  const first = args[0];
  if (first instanceof Uint8Array || first instanceof ArrayBuffer)
    return { data: Buffer.from(first as Uint8Array), binary: true, atUs, seq };
  return { data: Buffer.from(JSON.stringify(first) ?? '', 'utf8'), binary: false, atUs, seq };
}

/** One Socket.IO session's connection. */
export class SocketioSocket implements Abortable {
  phase: SocketioPhase = 'connecting';
  failure: ErrorKind | undefined;
  /** The Engine.IO transport the namespace connected over; undefined before. */
  transport: string | undefined;
  /** When the namespace connected, µs since dispatch start (-1: never). */
  openedAtUs = -1;
  /** Bytes of the Engine.IO packets received and sent (heartbeats included). */
  bytesIn = 0;
  bytesOut = 0;
  readonly #socket: Socket;
  readonly #now: () => number;
  readonly #queue: ReceivedEvent[] = [];
  #seq = 0;
  #wake: (() => void) | undefined;
  #flowDone = false;
  #pausing = false;
  #timer: LongTimeout | undefined;

  constructor(target: SocketioTarget) {
    this.#now = target.now;
    const { rejectUnauthorized, ca, cert, key, pfx, passphrase } = target.tls;
    this.#socket = io(target.url, {
      path: target.path,
      transports: [...target.transports],
      forceNew: true,
      reconnection: false,
      timeout: target.timeoutMs,
      query: target.query,
      extraHeaders: target.headers,
      ...(target.auth === undefined ? {} : { auth: target.auth }),
      rejectUnauthorized,
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
      ...(pfx === undefined ? {} : { pfx: pfx as unknown as string }),
      ...(passphrase === undefined ? {} : { passphrase }),
    });
    // The Manager opens its Engine.IO socket at once (autoConnect), so it is there to listen to.
    this.#socket.io.engine.on('packet', (packet) => (this.bytesIn += packetBytes(packet.data)));
    this.#socket.io.engine.on(
      'packetCreate',
      (packet) => (this.bytesOut += packetBytes(packet.data)),
    );
    this.#socket.on('connect', () => {
      this.phase = 'open';
      this.openedAtUs = this.#now();
      this.transport = this.#socket.io.engine.transport.name;
      this.#poke();
    });
    this.#socket.on('connect_error', (error: Error & { type?: unknown; description?: unknown }) =>
      this.#fail(
        error.type === 'TransportError' ? transportKind(error.description) : 'ws_handshake',
      ),
    );
    this.#socket.on('disconnect', (reason) => {
      if (this.phase !== 'open') return;
      if (reason === 'io server disconnect' && this.#flowDone) {
        this.phase = 'closed';
        this.#poke();
      } else this.#fail('ws_abnormal_close');
    });
    this.#socket.onAny((event: string, ...args: unknown[]) => {
      target.onEvent();
      if (this.#queue.length >= MAX_QUEUED) this.#queue.shift();
      this.#queue.push({ event, frame: frameOf(args, this.#now(), ++this.#seq) });
      this.#poke();
    });
  }

  /** Waits for the namespace's connect; false when the session failed instead. */
  async opened(): Promise<boolean> {
    while (this.phase === 'connecting') await this.#next();
    return this.phase === 'open';
  }

  /** Emits `event` (with `data` when given, and a callback when `ack` is set). */
  emit(event: string, data: unknown[], ack?: (...args: unknown[]) => void): void {
    if (this.phase !== 'open') return;
    if (ack === undefined) this.#socket.emit(event, ...data);
    else this.#socket.emit(event, ...data, ack);
  }

  /** Waits for an ack: resolves with its frame, undefined when the session failed first. */
  async ack(received: () => Frame | undefined): Promise<Frame | undefined> {
    for (;;) {
      const frame = received();
      if (frame !== undefined) return frame;
      if (this.phase !== 'open') return undefined;
      await this.#next();
    }
  }

  /** Wakes the waiter (an ack came). */
  poke(): void {
    this.#poke();
  }

  /** The first queued event named `event` that `test` selects, taken; else waits for one. */
  async take(event: string, test: (frame: Frame) => boolean): Promise<Frame | undefined> {
    for (;;) {
      const found = this.#takeQueued(event, test);
      if (found !== undefined) return found;
      if (this.phase !== 'open') return undefined;
      await this.#next();
    }
  }

  /**
   * Listens `ms`, handing `taken` every event (of `event` when set) that `test` selects, those
   * queued first; false when the session failed meanwhile. endPause() ends it early.
   */
  async listen(
    ms: number,
    event: string | undefined,
    test: (frame: Frame) => boolean,
    taken: () => void,
  ): Promise<boolean> {
    this.#pausing = true;
    this.#timer = setLongTimeout(this.#onPauseEnd, ms);
    for (;;) {
      while (this.#takeQueued(event, test) !== undefined) taken();
      if (!this.#pausing || this.phase !== 'open') break;
      await this.#next();
    }
    this.#timer.clear();
    this.#pausing = false;
    return this.failure === undefined;
  }

  /** Waits `ms`, events queueing meanwhile; false when the session failed. endPause() ends it early. */
  async pause(ms: number): Promise<boolean> {
    this.#pausing = true;
    this.#timer = setLongTimeout(this.#onPauseEnd, ms);
    while (this.#pausing && this.phase === 'open') await this.#next();
    this.#timer.clear();
    this.#pausing = false;
    return this.failure === undefined;
  }

  /** Ends the pause or listen under way now (the run is stopping). */
  endPause(): void {
    this.#timer?.clear();
    this.#onPauseEnd();
  }

  /** The session's last wait is over: from now on a disconnect by the server ends it well. */
  flowDone(): void {
    this.#flowDone = true;
  }

  /** Disconnects from the namespace (and closes the Engine.IO connection, its only user). */
  close(): void {
    if (this.phase === 'open') this.phase = 'closed';
    this.#socket.disconnect();
  }

  /** Cuts the session (deadline passed, hard stop): ws_timeout for a deadline, else the reason's kind. */
  abort(reason: Error): void {
    const kind = classifyError(reason);
    this.#fail(kind === 'timeout' ? 'ws_timeout' : kind);
  }

  /** Releases the connection whatever its state. */
  destroy(): void {
    this.#timer?.clear();
    this.#queue.length = 0;
    this.#socket.offAny();
    this.#socket.disconnect();
  }

  #takeQueued(event: string | undefined, test: (frame: Frame) => boolean): Frame | undefined {
    const at = this.#queue.findIndex(
      (e) => (event === undefined || e.event === event) && test(e.frame),
    );
    return at < 0 ? undefined : this.#queue.splice(at, 1)[0]!.frame;
  }

  readonly #onPauseEnd = (): void => {
    this.#pausing = false;
    this.#poke();
  };

  #fail(kind: ErrorKind): void {
    if (this.failure !== undefined || this.phase === 'closed') return;
    this.failure = kind;
    this.phase = 'failed';
    this.#socket.disconnect();
    this.#poke();
  }

  #poke(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #next(): Promise<void> {
    return new Promise((resolve) => (this.#wake = resolve));
  }
}

/** A transport error's kind (its cause: refused, dns, tls…); ws_handshake when it names none. */
function transportKind(description: unknown): ErrorKind {
  const cause =
    description !== null && typeof description === 'object' && 'error' in description
      ? description.error
      : description;
  const kind = classifyError(cause);
  return kind === 'other' ? 'ws_handshake' : kind;
}

/** An Engine.IO packet's bytes as sent: its type (one character) and its data. */
function packetBytes(data: unknown): number {
  if (typeof data === 'string') return 1 + Buffer.byteLength(data);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return 1 + data.byteLength;
  return 1;
}
