/**
 * One HTTP exchange at a time for one virtual user: an undici dispatch handler reused for every
 * request (STYLE.md rule 8: no per-request closures or objects). It speaks undici 8's handler
 * interface (onRequestStart/onResponseStart/onResponseData/onResponseEnd/onResponseError), the only
 * one its Client core accepts; the raw header list is read from the controller, as extractors and
 * scripts want it (name, value, name, value…), not from the parsed object undici also passes.
 *
 * The body is read fully and counted, but kept only up to `keepBytes` (for extractors). A body
 * with a Content-Encoding that something reads (`keepBytes` > 0: extractors, checks, a script's
 * response, the debug log) is kept whole and decoded when it ends (response-body.ts), as a real
 * client would: `bytesIn` stays the wire bytes, `decodedBytes` is what it decoded to, and a body
 * that does not decode, or passes the cap decoded (a decompression bomb), fails the request through
 * `failure`. One that nothing reads is counted on the wire and neither kept nor decoded (issue 47:
 * decoding every gzip body on the segment's thread cost +12 µs a response and doubled the RSS), so
 * it has no `decodedBytes` and cannot fail to decode (docs/reports.md, `bytes_decoded`). The response headers a client acts on (Set-Cookie,
 * Location) are found in one pass over the raw list. Completion calls the caller's callback,
 * not a promise: a promise per request, and the await behind it, cost about a tenth of the
 * throughput (docs/performance.md). Errors complete it too (they are data here: `error` is set),
 * so the caller needs no try/catch on the hot path. The time the headers came (`headersUs`, on
 * the caller's clock) is read once per response, for http_req_waiting.
 *
 * A stream endpoint's successful response (2xx, given a listener at start()) is timed as it comes.
 * An sse one is read event by event (sse-reader.ts): nothing of it is kept but its last event's
 * data, which is what body() and `kept` then return. A chunks one is timed chunk by chunk, each
 * chunk being one of undici's reads of the body (what the socket delivered: the server's writes
 * may merge or split on the way), and kept as a buffered body is. `idleDeadlineUs` moves with each
 * event or chunk when the endpoint has an idle timeout (the segment's deadline sweep enforces it).
 * A compressed stream cannot be read as it comes: it fails as decode_error at once.
 */
import type { Dispatcher } from 'undici';
import { BarrageError } from '../../model/errors/barrage-error.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { StreamKind } from '../../model/plan/endpoint-plan.js';
import { decodeBody, MAX_KEPT_BODY } from './response-body.js';
import type { Plan } from '../../model/plan/plan.js';
import type * as SseReaderModule from './sse-reader.js';
import type { LlmReader } from './llm-reader.js';
import type { SseReader } from './sse-reader.js';
import type { StreamListener } from './stream-listener.js';

// sse-reader.ts (undici's EventSource parser, whose module requires undici's fetch: about 10 ms of
// a start) is imported only for a plan that may read an event stream: importSseReader().
let sseReader: typeof SseReaderModule | undefined;

/** Imports sse-reader.ts; a segment whose plan readsSse() does so before dispatch. */
export async function importSseReader(): Promise<void> {
  sseReader ??= await import('./sse-reader.js');
}

/**
 * True when a plan may read an event stream: an endpoint with `stream: sse`, or a TypeScript
 * scenario (its requests choose their stream as they run).
 */
export function readsSse(plan: Plan): boolean {
  return plan.script !== undefined || plan.graph.endpoints.some((e) => e.stream?.kind === 'sse');
}

/** The imported module; an event stream read without it is a bug of importSseReader. */
function sseModule(): typeof SseReaderModule {
  if (sseReader === undefined) throw new Error('bug: event stream read before importSseReader()');
  return sseReader;
}

/** The outcome fields of the last exchange. */
export class Exchange implements Dispatcher.DispatchHandler {
  status = 0;
  bytesIn = 0;
  error: unknown = undefined;
  /** The raw response headers (name, value, …), valid until the next start(). */
  headers: Buffer[] | null = null;
  /** Why a response that came fails anyway: its body did not decode (decode_error, body_too_large). */
  failure: ErrorKind | undefined = undefined;
  /** Size of the decoded body when the response was compressed, else 0. */
  decodedBytes = 0;
  /** Indexes of the Set-Cookie values in `headers`. */
  readonly setCookies: number[] = [];
  /** Index of the Location value in `headers`, -1 when none. */
  location = -1;
  /** When the response headers came, µs on the clock start() was given; -1 before they do. */
  headersUs = -1;
  /** When this exchange was sent, µs on the same clock (the request path sets it at each send). */
  sendUs = -1;
  /** The event stream being read, when the response is one; valid until the next start(). */
  sse: SseReader | undefined = undefined;
  /** When a stream fails as idle (µs, the clock start() was given); 0 when it cannot. */
  idleDeadlineUs = 0;
  /**
   * An LLM endpoint's token reader, set by the caller before start() (undefined for others): an
   * event stream's events go through it, and the kept data is the event that held the usage.
   */
  llm: LlmReader | undefined = undefined;
  #listener: StreamListener | undefined = undefined;
  #kind: StreamKind = 'sse';
  #idleUs = 0;
  /** A chunks stream being read: its chunks so far, and when its last came (-1 before it). */
  #chunked = false;
  #pieces = 0;
  #lastPieceUs = -1;
  #now: () => number = () => 0;
  #encoding = -1;
  #chunks: Buffer[] = [];
  #kept = 0;
  #keepBytes = 0;
  /** What the caller asked to keep: 0 when nothing reads the body (a compressed one stays so). */
  #wanted = 0;
  #controller: Dispatcher.DispatchController | null = null;
  #done: (() => void) | null = null;
  #pendingAbort: Error | null = null;

  /**
   * Resets for a new request; `done` is called once, when it completes or fails. It may be called
   * during dispatch() itself (undici fails an invalid request at once), so the caller must be ready.
   * `now` (µs) times the response headers. With a `stream` listener, a 2xx response is read as a
   * `kind` stream, failing as idle when `idleUs` (0: never) pass without an event or a chunk.
   */
  start(
    keepBytes: number,
    done: () => void,
    now: () => number,
    stream?: StreamListener,
    kind: StreamKind = 'sse',
    idleUs = 0,
  ): void {
    this.status = 0;
    this.bytesIn = 0;
    this.error = undefined;
    this.headers = null;
    this.failure = undefined;
    this.decodedBytes = 0;
    this.setCookies.length = 0;
    this.location = -1;
    this.headersUs = -1;
    this.sse?.close();
    this.sse = undefined;
    this.idleDeadlineUs = 0;
    this.#listener = stream;
    this.#kind = kind;
    this.#idleUs = idleUs;
    this.#chunked = false;
    this.#pieces = 0;
    this.#lastPieceUs = -1;
    this.#now = now;
    this.#encoding = -1;
    // A new list only when the last one was used: callers read it before the next start().
    if (this.#chunks.length !== 0) this.#chunks = [];
    this.#kept = 0;
    this.#keepBytes = keepBytes;
    this.#wanted = keepBytes;
    this.#controller = null;
    this.#pendingAbort = null;
    this.#done = done;
  }

  /**
   * Aborts the exchange in flight (deadline or hard stop); the reason becomes `error`. Returns
   * false when the request is still queued in undici (waiting for a connection or, over HTTP/2,
   * for a stream the server allows): nothing there can be aborted, so the caller must fail the
   * queue (VirtualUser destroys the client, which fails it with the reason).
   */
  abort(reason: Error): boolean {
    if (this.#done === null) return true;
    if (this.#controller !== null) {
      this.#controller.abort(reason);
      return true;
    }
    this.#pendingAbort = reason;
    return false;
  }

  /** The kept body as UTF-8 text (undefined when none was kept). */
  body(): string | undefined {
    if (this.sse !== undefined) return this.#wanted > 0 ? (this.#eventData() ?? '') : undefined;
    if (this.#chunks.length === 0) return this.#wanted > 0 ? '' : undefined;
    return Buffer.concat(this.#chunks).toString('utf8');
  }

  /** The kept body's chunks (an sse stream's: its last event's data), valid until the next start(). */
  get kept(): readonly Buffer[] {
    if (this.sse === undefined) return this.#chunks;
    const data = this.#eventData();
    return this.#wanted > 0 && data !== undefined ? [Buffer.from(data, 'utf8')] : [];
  }

  /** The event extractors read: an LLM stream's that held the usage, else the last one. */
  #eventData(): string | undefined {
    return this.llm?.usageData ?? this.sse?.lastData;
  }

  /** True when the request was started as a stream (its response may still have been no 2xx). */
  get streamed(): boolean {
    return this.#listener !== undefined;
  }

  /** Events (sse) or chunks (chunks) the response streamed; 0 when it was read whole. */
  get streamPieces(): number {
    return this.sse?.events ?? this.#pieces;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#pendingAbort !== null) controller.abort(this.#pendingAbort);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number): void {
    this.headersUs = this.#now();
    this.status = statusCode;
    const headers = rawHeadersOf(controller.rawHeaders);
    this.headers = headers;
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name = headers[i]!;
      // Lengths first: most names are none of the three, and need no string.
      if (name.length === 10) {
        if (name.toString('latin1').toLowerCase() === 'set-cookie') this.setCookies.push(i + 1);
      } else if (name.length === 8) {
        if (name.toString('latin1').toLowerCase() === 'location') this.location = i + 1;
      } else if (name.length === 16) {
        if (name.toString('latin1').toLowerCase() === 'content-encoding') this.#encoding = i + 1;
      }
    }
    if (this.#listener !== undefined && statusCode >= 200 && statusCode < 300) {
      this.#startStream(controller);
      return;
    }
    // A compressed body something reads is kept whole (up to the cap) to be decoded when it ends.
    if (this.#encoding >= 0 && this.#wanted > 0) this.#keepBytes = MAX_KEPT_BODY + 1;
  }

  /** Reads the response as a stream of events or chunks, or fails it when it is compressed. */
  #startStream(controller: Dispatcher.DispatchController): void {
    if (this.#encoding >= 0) {
      controller.abort(new StreamError('BARRAGE_STREAM_ENCODED', 'a compressed stream'));
      return;
    }
    if (this.#idleUs > 0) this.idleDeadlineUs = this.headersUs + this.#idleUs;
    if (this.#kind === 'chunks') {
      this.#chunked = true;
      return;
    }
    this.#keepBytes = 0;
    const sse = new (sseModule().SseReader)(
      this.#listener!,
      () => {
        if (this.sse === sse)
          this.abort(new StreamError('BARRAGE_EVENT_TOO_LARGE', 'event too large'));
      },
      this.llm,
    );
    this.sse = sse;
  }

  /** A chunk of a chunks stream came: timed now, from the one before. */
  #chunk(): void {
    const atUs = this.#now();
    this.#listener!.streamPiece(atUs, this.#lastPieceUs);
    this.#lastPieceUs = atUs;
    this.#pieces++;
    if (this.#idleUs > 0) this.idleDeadlineUs = atUs + this.#idleUs;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytesIn += chunk.length;
    if (this.sse !== undefined) {
      const events = this.sse.events;
      this.sse.read(chunk, this.#now());
      if (this.#idleUs > 0 && this.sse.events !== events)
        this.idleDeadlineUs = this.sse.lastEventUs + this.#idleUs;
      return;
    }
    if (this.#chunked && chunk.length > 0) this.#chunk();
    if (this.#kept < this.#keepBytes) {
      const room = this.#keepBytes - this.#kept;
      this.#chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
      this.#kept += Math.min(room, chunk.length);
    }
  }

  onResponseEnd(): void {
    if (this.#encoding >= 0 && this.#chunks.length > 0) this.#decode();
    this.#finish();
  }

  /** Replaces the kept wire bytes with the decoded body, or sets `failure`. */
  #decode(): void {
    const encoding = this.headers![this.#encoding]!.toString('latin1');
    const decoded = decodeBody(encoding, this.#chunks, this.bytesIn);
    if (typeof decoded === 'string') {
      this.failure = decoded;
      return;
    }
    if (decoded === undefined) return;
    this.decodedBytes = decoded.length;
    this.#chunks = [decoded];
    this.#kept = decoded.length;
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.error = error;
    this.#finish();
  }

  #finish(): void {
    this.idleDeadlineUs = 0;
    this.sse?.close();
    const done = this.#done;
    this.#done = null;
    this.#controller = null;
    done?.();
  }
}

/**
 * A response's raw headers as one list for every protocol: HTTP/1.1's as undici gives them (name,
 * value, … as Buffers); an h2 response's come as an object (name → a value, or a list of them
 * for a repeated field such as Set-Cookie), turned into that list without its pseudo-headers
 * (`:status`). Read in this one place, cookies, redirects, decoding, extractors, checks, the
 * debug log and scripts see the same headers over either.
 */
export function rawHeadersOf(raw: unknown): Buffer[] {
  if (Array.isArray(raw)) return raw as Buffer[];
  const list: Buffer[] = [];
  if (raw === null || typeof raw !== 'object') return list;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value])
      list.push(Buffer.from(name, 'latin1'), Buffer.from(String(one), 'latin1'));
  }
  return list;
}

/** A stream that cannot be read: compressed (decode_error), or an event past the cap. */
class StreamError extends BarrageError {
  constructor(
    readonly code: 'BARRAGE_STREAM_ENCODED' | 'BARRAGE_EVENT_TOO_LARGE',
    message: string,
  ) {
    super(message);
  }
}
