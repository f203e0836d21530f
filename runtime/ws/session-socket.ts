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
 *   open        data frame                                          → open     counted; the first
 *                                                                               after send() is the reply
 *   open        clean close from the server (1000, 1001, 1005)
 *               once every message was answered (flowDone())        → closed
 *   open        any other close, or an error                        → failed   ws_abnormal_close
 *   closing     the close event after the server's close frame      → closed
 *   closing     connection lost without a close frame (1006), error → failed   ws_abnormal_close
 *   any live    abort: deadline passed / hard stop                  → failed   ws_timeout / aborted
 *
 * A send while the server's close is in flight reaches nobody; the close event ends the wait.
 */
import { WebSocket, type ClientOptions, type RawData } from 'ws';
import type { IncomingMessage } from 'node:http';
import { classifyError, type ErrorKind } from '../failure/error-kind.js';
import { MAX_KEPT_BODY } from '../http/response-body.js';
import { setLongTimeout, type LongTimeout } from '../schedule/long-timer.js';
import type { Abortable } from '../worker/virtual-user.js';
import type { SessionPayload, SessionTarget } from './compiled-session.js';

/** Largest incoming message (ws `maxPayload`); a larger one closes the session (1009). */
export const MAX_WS_PAYLOAD = MAX_KEPT_BODY;

/** Close codes that end a session cleanly when the server sends them after the flow's replies. */
const CLEAN_CLOSE: ReadonlySet<number> = new Set([1000, 1001, 1005]);
/** Close code reported when the connection ended without a close frame. */
const NO_CLOSE_FRAME = 1006;

/** Where a session socket is in its life. */
export type SocketPhase = 'connecting' | 'open' | 'closing' | 'closed' | 'failed';

/** How a session socket connects and what it reports. */
export interface SocketOptions {
  readonly subprotocols: readonly string[];
  readonly insecure: boolean;
  /** The endpoint's timeout; ws's own close timer is a backstop behind our deadline. */
  readonly timeoutMs: number;
  /** Keep the handshake response's headers (header extractors). */
  readonly keepHeaders: boolean;
  /** Keep the reply frame (body extractors: json, regex, css). */
  readonly keepReply: boolean;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** Every data frame received, with its size. */
  readonly onFrame: (bytes: number) => void;
}

/** One session's connection. */
export class SessionSocket implements Abortable {
  phase: SocketPhase = 'connecting';
  failure: ErrorKind | undefined;
  /** Status of the handshake response (101 when it opened); 0 without one. */
  status = 0;
  /** When the socket opened, µs since dispatch start; -1 before. */
  openedAtUs = -1;
  /** When the reply to the last send() arrived; -1 while none has. */
  replyAtUs = -1;
  /** The reply's text when it was a text frame and replies are kept. */
  replyText: string | undefined;
  /** The handshake response's raw headers when kept. */
  headers: Buffer[] | null = null;
  readonly #ws: WebSocket;
  readonly #options: SocketOptions;
  #expecting = false;
  #flowDone = false;
  #pausing = false;
  /** The message interval under way (up to a year: long-timer.ts). */
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
      rejectUnauthorized: !options.insecure,
      closeTimeout: options.timeoutMs + 1000,
    };
    this.#ws = new WebSocket(target.url, [...options.subprotocols], client);
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

  /** Sends a message as a text (string) or binary (bytes) frame; the next frame is its reply. */
  send(payload: SessionPayload): void {
    this.#expecting = true;
    this.replyAtUs = -1;
    this.replyText = undefined;
    if (typeof payload === 'string') this.#ws.send(payload);
    else this.#ws.send(payload, { binary: true });
  }

  /** Waits for the reply to the last send(); false when the session failed first. */
  async reply(): Promise<boolean> {
    while (this.phase === 'open' && this.replyAtUs < 0) await this.#next();
    return this.failure === undefined && this.replyAtUs >= 0;
  }

  /** Every message was answered: from now on a clean close by the server ends the session well. */
  flowDone(): void {
    this.#flowDone = true;
  }

  /** Waits `ms` (the message interval); false when the session failed meanwhile. */
  async pause(ms: number): Promise<boolean> {
    this.#pausing = true;
    this.#timer = setLongTimeout(this.#onPauseEnd, ms);
    while (this.#pausing && this.phase === 'open') await this.#next();
    this.#timer?.clear();
    this.#pausing = false;
    return this.failure === undefined;
  }

  /** Sends a close frame (1000) and waits for the server's; true when the close was clean. */
  async close(): Promise<boolean> {
    if (this.phase === 'open') {
      this.phase = 'closing';
      this.#ws.close(1000);
    }
    while (this.phase === 'closing') await this.#next();
    return this.failure === undefined;
  }

  /** Cuts the session (deadline passed, hard stop): ws_timeout for a deadline, else the reason's kind. */
  abort(reason: Error): void {
    const kind = classifyError(reason);
    this.#fail(kind === 'timeout' ? 'ws_timeout' : kind);
  }

  /** Releases the connection whatever its state (a no-op once it is closed). */
  destroy(): void {
    this.#timer?.clear();
    this.#ws.terminate();
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

  readonly #onMessage = (data: RawData, isBinary: boolean): void => {
    this.#options.onFrame(rawLength(data));
    if (!this.#expecting) return;
    this.#expecting = false;
    this.replyAtUs = this.#options.now();
    if (this.#options.keepReply && !isBinary) this.replyText = rawText(data);
    this.#signal();
  };

  readonly #onError = (error: Error): void => {
    if (this.phase !== 'connecting') return this.#fail('ws_abnormal_close');
    const kind = classifyError(error);
    this.#fail(kind === 'other' ? 'ws_handshake' : kind);
  };

  readonly #onClose = (code: number): void => {
    if (this.phase === 'failed' || this.phase === 'closed') return;
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

/** Size of a received message in bytes. */
function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data.byteLength;
}

/** A received message as UTF-8 text. */
function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
