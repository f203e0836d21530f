/**
 * One HTTP exchange at a time for one virtual user: an undici dispatch handler reused for every
 * request (STYLE.md rule 8: no per-request closures or objects). It speaks undici 8's handler
 * interface (onRequestStart/onResponseStart/onResponseData/onResponseEnd/onResponseError), the only
 * one its Client core accepts; the raw header list is read from the controller, as extractors and
 * scripts want it (name, value, name, value…), not from the parsed object undici also passes.
 *
 * The body is read fully and counted, but kept only up to `keepBytes` (for extractors). Nothing is
 * decompressed: dispatch() hands over the bytes as sent. Completion calls the caller's callback,
 * not a promise: a promise per request, and the await behind it, cost about a tenth of the
 * throughput (docs/performance.md). Errors complete it too (they are data here: `error` is set),
 * so the caller needs no try/catch on the hot path.
 */
import type { Dispatcher } from 'undici';

/** The outcome fields of the last exchange. */
export class Exchange implements Dispatcher.DispatchHandler {
  status = 0;
  bytesIn = 0;
  error: unknown = undefined;
  headers: Buffer[] | null = null;
  #chunks: Buffer[] = [];
  #kept = 0;
  #keepBytes = 0;
  #keepHeaders = false;
  #controller: Dispatcher.DispatchController | null = null;
  #done: (() => void) | null = null;
  #pendingAbort: Error | null = null;

  /**
   * Resets for a new request; `done` is called once, when it completes or fails. It may be called
   * during dispatch() itself (undici fails an invalid request at once), so the caller must be ready.
   */
  start(keepBytes: number, keepHeaders: boolean, done: () => void): void {
    this.status = 0;
    this.bytesIn = 0;
    this.error = undefined;
    this.headers = null;
    // A new list only when the last one was used: callers read it before the next start().
    if (this.#chunks.length !== 0) this.#chunks = [];
    this.#kept = 0;
    this.#keepBytes = keepBytes;
    this.#keepHeaders = keepHeaders;
    this.#controller = null;
    this.#pendingAbort = null;
    this.#done = done;
  }

  /** Aborts the exchange in flight (deadline or hard stop); the reason becomes `error`. */
  abort(reason: Error): void {
    if (this.#done === null) return;
    if (this.#controller === null) this.#pendingAbort = reason;
    else this.#controller.abort(reason);
  }

  /** The kept body as UTF-8 text (undefined when none was kept). */
  body(): string | undefined {
    if (this.#chunks.length === 0) return this.#keepBytes > 0 ? '' : undefined;
    return Buffer.concat(this.#chunks).toString('utf8');
  }

  /** The kept body's chunks, valid until the next start(). */
  get kept(): readonly Buffer[] {
    return this.#chunks;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#pendingAbort !== null) controller.abort(this.#pendingAbort);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode;
    // HTTP/1.1 responses (the only kind our Clients speak: allowH2 is off) carry raw Buffers here.
    if (this.#keepHeaders) this.headers = controller.rawHeaders as Buffer[];
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytesIn += chunk.length;
    if (this.#kept < this.#keepBytes) {
      const room = this.#keepBytes - this.#kept;
      this.#chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
      this.#kept += Math.min(room, chunk.length);
    }
  }

  onResponseEnd(): void {
    this.#finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.error = error;
    this.#finish();
  }

  #finish(): void {
    const done = this.#done;
    this.#done = null;
    this.#controller = null;
    done?.();
  }
}

/** Our own deadline: one per request, covering connect, headers and the whole body. */
export class RequestTimeoutError extends Error {
  readonly code = 'BARRAGE_TIMEOUT';
  constructor() {
    super('request deadline passed');
  }
}

/** A hard stop (second Ctrl+C) cut the request. */
export class HardStopError extends Error {
  readonly code = 'BARRAGE_ABORTED';
  constructor() {
    super('run stopped');
  }
}
