/**
 * The connection of one WebSocket session, over the `ws` package, as states the session awaits.
 * Events only move the state and wake the one waiter; the first failure is kept (`failure`) and
 * destroys the socket, so nothing of a failed session lingers.
 *
 *   phase       event                                               → phase    failure
 *   connecting  101 with a valid handshake ('open')                 → open
 *   connecting  a response other than 101 ('unexpected-response')  → failed   ws_handshake (status kept)
 *   connecting  error with a network code (refused, dns, tls, reset) → failed  that kind
 *   connecting  any other error (bad accept key, subprotocol…)      → failed   ws_handshake
 *   open        data frame                                          → open     counted, queued
 *   open        clean close from the server (1000, 1001, 1005)
 *               once the session's last wait is over (flowDone())   → closed
 *   open        any other close, or an error                        → failed   ws_abnormal_close
 *   closing     the close event after the server's close frame      → closed
 *   closing     connection lost without a close frame (1006), error → failed   ws_abnormal_close
 *   any live    abort: deadline passed / hard stop                  → failed   ws_timeout / aborted
 *
 * Frames received wait in a queue, in arrival order, for the session's steps (ws-session.ts):
 * each wait looks at them from where the previous one stopped, takes the first its match selects
 * and skips those before it. The queue holds at most MAX_QUEUED_FRAMES frames and
 * MAX_QUEUED_BYTES bytes; past either, the oldest are skipped unseen, so a server flooding frames
 * between two waits costs bounded memory. Every frame is counted when it arrives (`onFrame`).
 *
 * A send while the server's close is in flight reaches nobody; the close event ends the wait.
 */
import { WebSocket, type ClientOptions, type RawData } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { classifyError } from '../failure/error-kind.js';
import { MAX_KEPT_BODY } from '../http/response-body.js';
import { setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import type { Abortable } from '../../model/errors/barrage-error.js';
import type { SessionPayload, SessionTarget } from './compiled-session.js';
import type { WsTransport } from './ws-transport.js';

/** Largest incoming message (ws `maxPayload`); a larger one closes the session (1009). */
export const MAX_WS_PAYLOAD = MAX_KEPT_BODY;
/** Frames kept for the session's next wait. */
export const MAX_QUEUED_FRAMES = 1000;
/** Bytes of frames kept for the session's next wait. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/** Close codes that end a session cleanly when the server sends them after the flow's waits. */
const CLEAN_CLOSE: ReadonlySet<number> = new Set([1000, 1001, 1005]);
/** Close code reported when the connection ended without a close frame. */
const NO_CLOSE_FRAME = 1006;

/** Where a session socket is in its life. */
export type SocketPhase = 'connecting' | 'open' | 'closing' | 'closed' | 'failed';

/** A data frame received. */
export interface Frame {
  readonly data: Buffer;
  readonly binary: boolean;
  /** When it arrived, µs since dispatch start. */
  readonly atUs: number;
  /** Its place among the session's frames, from 1. */
  readonly seq: number;
}

/** How a session socket connects and what it reports. */
export interface SocketOptions {
  readonly subprotocols: readonly string[];
  /** TLS settings and proxies: how the connection to the target's origin opens. */
  readonly transport: WsTransport;
  /** The endpoint's timeout; ws's own close timer is a backstop behind our deadline. */
  readonly timeoutMs: number;
  /** Keep the handshake response's headers (header extractors). */
  readonly keepHeaders: boolean;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** Every data frame received, with its size. */
  readonly onFrame: (bytes: number) => void;
  /** When set, frames are handed here as they arrive instead of waiting in the queue. */
  readonly onData?: (frame: Frame) => void;
}

/** One session's connection. */
export class SessionSocket implements Abortable {
  phase: SocketPhase = 'connecting';
  failure: ErrorKind | undefined;
  /** Status of the handshake response (101 when it opened); 0 without one. */
  status = 0;
  /** When the socket opened, µs since dispatch start; -1 before. */
  openedAtUs = -1;
  /** The handshake response's raw headers when kept. */
  headers: Buffer[] | null = null;
  /** The close code the connection ended with (1006 without a close frame); 0 while open. */
  closeCode = 0;
  /** The seq of the newest frame received (0 before the first). */
  lastSeq = 0;
  readonly #ws: WebSocket;
  readonly #options: SocketOptions;
  readonly #queue: Frame[] = [];
  #queuedBytes = 0;
  #flowDone = false;
  #pausing = false;
  /** The pause or listen under way (up to a year: long-timer.ts). */
  #timer: LongTimeout | undefined;
  #wake: (() => void) | null = null;

  /** Starts the handshake; throws when the url or a header is invalid (nothing was sent). */
  constructor(target: SessionTarget, options: SocketOptions) {
    this.#options = options;
    const client: ClientOptions & { closeTimeout: number } = {
      headers: target.headers,
      maxPayload: MAX_WS_PAYLOAD,
      perMessageDeflate: false,
      followRedirects: false,
      closeTimeout: options.timeoutMs + 1000,
      ...options.transport.connectOptions(target.url),
    };
    this.#ws = new WebSocket(target.url, [...options.subprotocols], client);
    this.#ws.binaryType = 'nodebuffer';
    this.#ws.on('upgrade', this.#onUpgrade);
    this.#ws.on('unexpected-response', this.#onUnexpected);
    this.#ws.on('open', this.#onOpen);
    this.#ws.on('message', this.#onMessage);
    this.#ws.on('error', this.#onError);
    this.#ws.on('close', this.#onClose);
  }

  /** Waits for the handshake; true when the socket opened. */
  async opened(): Promise<boolean> {
    while (this.phase === 'connecting') await this.#next();
    return this.failure === undefined;
  }

  /** Sends a message as a text (string) or binary (bytes) frame; its reply's seq is above the one returned. */
  send(payload: SessionPayload): number {
    if (typeof payload === 'string') this.#ws.send(payload);
    else this.#ws.send(payload, { binary: true });
    return this.lastSeq;
  }

  /**
   * Waits for the first frame after seq `after` that `match` selects, skipping the frames before
   * it; undefined when the session failed or ended first.
   */
  async take(match: (frame: Frame) => boolean, after = 0): Promise<Frame | undefined> {
    for (;;) {
      for (let frame = this.#shift(); frame !== undefined; frame = this.#shift())
        if (frame.seq > after && match(frame)) return frame;
      if (this.phase !== 'open') return undefined;
      await this.#next();
    }
  }

  /**
   * Keeps the session open for `ms`, handing every frame `match` selects to `taken` (the others
   * are skipped); false when the session failed meanwhile. endPause() ends it early.
   */
  async listen(
    ms: number,
    match: (frame: Frame) => boolean,
    taken: (frame: Frame) => void,
  ): Promise<boolean> {
    this.#pausing = true;
    this.#timer = setLongTimeout(this.#onPauseEnd, ms);
    for (;;) {
      for (let frame = this.#shift(); frame !== undefined; frame = this.#shift())
        if (match(frame)) taken(frame);
      if (!this.#pausing || this.phase !== 'open') break;
      await this.#next();
    }
    this.#timer?.clear();
    this.#pausing = false;
    return this.failure === undefined;
  }

  /** Waits `ms`, frames queueing meanwhile; false when the session failed. endPause() ends it early. */
  async pause(ms: number): Promise<boolean> {
    this.#pausing = true;
    this.#timer = setLongTimeout(this.#onPauseEnd, ms);
    while (this.#pausing && this.phase === 'open') await this.#next();
    this.#timer?.clear();
    this.#pausing = false;
    return this.failure === undefined;
  }

  /** Ends the pause or listen under way now (the run is stopping). */
  endPause(): void {
    this.#timer?.clear();
    this.#onPauseEnd();
  }

  /** The session's last wait is over: from now on a clean close by the server ends it well. */
  flowDone(): void {
    this.#flowDone = true;
  }

  /** Sends a close frame and waits for the server's; true when the close was clean. */
  async close(code = 1000, reason?: string): Promise<boolean> {
    this.startClose(code, reason);
    while (this.phase === 'closing') await this.#next();
    return this.failure === undefined;
  }

  /** Sends a close frame; whoever waits (ended()) sees the end. */
  startClose(code = 1000, reason?: string): void {
    if (this.phase !== 'open') return;
    this.phase = 'closing';
    this.#ws.close(code, reason);
  }

  /** Waits until the connection has ended, closed or failed. */
  async ended(): Promise<void> {
    while (this.phase !== 'closed' && this.phase !== 'failed') await this.#next();
  }

  /** Stops reading frames (TCP then holds the server back) until resumeReading(). */
  pauseReading(): void {
    if (this.phase === 'open') this.#ws.pause();
  }

  /** Reads frames again. */
  resumeReading(): void {
    if (this.phase === 'open') this.#ws.resume();
  }

  /** Ends the session as failed with `kind` (a wait of the scenario's passed its timeout). */
  fail(kind: ErrorKind): void {
    this.#fail(kind);
  }

  /** Cuts the session (deadline passed, hard stop): ws_timeout for a deadline, else the reason's kind. */
  abort(reason: Error): void {
    const kind = classifyError(reason);
    this.#fail(kind === 'timeout' ? 'ws_timeout' : kind);
  }

  /** Releases the connection whatever its state (a no-op once it is closed). */
  destroy(): void {
    this.#timer?.clear();
    this.#queue.length = 0;
    this.#ws.terminate();
  }

  #shift(): Frame | undefined {
    const frame = this.#queue.shift();
    if (frame !== undefined) this.#queuedBytes -= frame.data.length;
    return frame;
  }

  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #fail(kind: ErrorKind): void {
    if (this.phase === 'closed' || this.phase === 'failed') return;
    this.closeCode ||= NO_CLOSE_FRAME;
    this.phase = 'failed';
    this.failure = kind;
    this.#timer?.clear();
    this.#ws.terminate();
    this.#signal();
  }

  readonly #onUpgrade = (response: IncomingMessage): void => {
    this.status = response.statusCode ?? 0;
    if (this.#options.keepHeaders)
      this.headers = response.rawHeaders.map((h) => Buffer.from(h, 'latin1'));
  };

  readonly #onUnexpected = (_request: unknown, response: IncomingMessage): void => {
    this.status = response.statusCode ?? 0;
    this.#fail('ws_handshake');
  };

  readonly #onOpen = (): void => {
    if (this.phase !== 'connecting') return;
    this.phase = 'open';
    this.openedAtUs = this.#options.now();
    this.#signal();
  };

  readonly #onMessage = (data: RawData, binary: boolean): void => {
    const bytes = data as Buffer;
    this.#options.onFrame(bytes.length);
    if (this.#options.onData !== undefined) {
      this.#options.onData({ data: bytes, binary, atUs: this.#options.now(), seq: ++this.lastSeq });
      return;
    }
    this.#queue.push({ data: bytes, binary, atUs: this.#options.now(), seq: ++this.lastSeq });
    this.#queuedBytes += bytes.length;
    while (
      this.#queue.length > MAX_QUEUED_FRAMES ||
      (this.#queuedBytes > MAX_QUEUED_BYTES && this.#queue.length > 1)
    )
      this.#shift();
    this.#signal();
  };

  readonly #onError = (error: Error): void => {
    if (this.phase !== 'connecting') return this.#fail('ws_abnormal_close');
    const kind = classifyError(error);
    this.#fail(kind === 'other' ? 'ws_handshake' : kind);
  };

  readonly #onClose = (code: number): void => {
    if (this.phase === 'failed' || this.phase === 'closed') return;
    this.closeCode = code;
    if (this.phase === 'connecting') return this.#fail('ws_handshake');
    const clean =
      this.phase === 'closing' ? code !== NO_CLOSE_FRAME : this.#flowDone && CLEAN_CLOSE.has(code);
    if (!clean) return this.#fail('ws_abnormal_close');
    this.phase = 'closed';
    this.#timer?.clear();
    this.#signal();
  };

  readonly #onPauseEnd = (): void => {
    this.#pausing = false;
    this.#signal();
  };
}
