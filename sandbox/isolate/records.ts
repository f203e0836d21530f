/**
 * The records host and isolate exchange through the hub (hub.ts; the host's side is
 * runtime/script/sandbox.ts), and their one codec, used on both sides: flat arrays of primitives,
 * [vu, kind, a, b, c] (five values wide), but RESPONSE: fifteen, [vu, kind, a, b, c, d, e, f, g,
 * h, i, j, k, l, m].
 * Every kind has a code of its own, whichever way it goes.
 *
 * Host → isolate (what bootstrap.ts's entry takes):
 *   RUN      (a token, b iteration, c exec)  runs an iteration of the export named c (the
 *            default export when c is ''); the calls of earlier ones still waiting are forgotten:
 *            the host settles only the calls of the entry running
 *   OK       (a id, b JSON text or '' for undefined)  a host operation settled
 *   RESPONSE (a id, b status, c fields, d text, e error, f duration, g events, h first event,
 *            i connecting, j tls handshaking, k waiting, l receiving, m protocol)
 *            an http call settled (response.ts): the final url (after redirects), then the raw
 *            header names and values (c of them), each followed by "\n", then the body, as one
 *            text (d); the error kind, '' for none (e); the duration in ms (f); a streamed call's
 *            events or chunks (g, -1 when it was no stream) and its time to the first one in ms
 *            (h, -1 when none came); the final exchange's phases in ms (i to l, 0 when it had
 *            none: runtime/script/response-timings.ts) and its protocol ('HTTP/1.1', 'HTTP/2.0',
 *            '' when no response came). Only the status is read at once
 *   FAILED   (a id, b message)       a host operation was refused: the call throws
 *   SETUP    (a token)               runs setup()
 *   TEARDOWN (a token)               runs teardown(data)
 *   EVENT    (a id, b type, c payload)  an event of a ws.connect() socket still open (socket.ts)
 * Isolate → host:
 *   BYTES  (a id, b an ArrayBuffer)  bytes of the host operation `id` (a binary body or
          multipart file), posted right before its START record, in order: its arguments name
          them by their place among them (request-args.ts)
   START  (a id, b op, c arguments as JSON text)  a host operation that settles later
 *   END    (a token, b result as JSON text)  an iteration ended ('' when it did not throw, else
 *          { name, message, stack }); setup() ended ({ ok, data } or { ok: false, error });
 *          teardown() ended ({ ok } or { ok: false, error })
 *   LOG    (a level, b text)  a console call (console.ts); at most MAX_LOGS_PER_TAKE a take, past
 *          them one LOG record (a '', c how many were dropped) counts the rest (hub.ts)
 *   FAULT  (a message)  the hub could not deliver a record to the virtual user's entry (it threw)
 */
export const RECORD = {
  RUN: 1,
  OK: 2,
  RESPONSE: 3,
  FAILED: 4,
  SETUP: 5,
  EVENT: 6,
  TEARDOWN: 7,
  START: 8,
  END: 9,
  LOG: 10,
  FAULT: 11,
  BYTES: 12,
} as const;

/** The kinds of the records that start an entry. */
export type EntryKind = typeof RECORD.RUN | typeof RECORD.SETUP | typeof RECORD.TEARDOWN;

/** A record's value. */
export type RecordValue = number | string | ArrayBuffer;

/** LOG records a take() carries at most; past them the hub counts them in one record (a, b ''). */
export const MAX_LOGS_PER_TAKE = 200;
/** Values in a record (isolate → host: always). */
export const RECORD_WIDTH = 5;
/** Values in a RESPONSE record. */
export const RESPONSE_WIDTH = 15;

/** Values in a host → isolate record of this kind. */
export function inboundWidth(kind: RecordValue | undefined): number {
  return kind === RECORD.RESPONSE ? RESPONSE_WIDTH : RECORD_WIDTH;
}

/**
 * An http response as RESPONSE carries it. The script reads its status at once and the rest only
 * when asked: `text` is the final url (after redirects), then the raw header names and values
 * (`fields` of them), each followed by "\n", then the kept body; `error` is the error kind ('' when
 * none).
 */
export interface ResponseValues {
  readonly status: number;
  readonly fields: number;
  readonly text: string;
  readonly error: string;
  readonly durationMs: number;
  /** A streamed call's events or chunks; -1 when it was no stream. */
  readonly events: number;
  /** A streamed call's time to its first event or chunk, ms; -1 when none came. */
  readonly firstEventMs: number;
  /** The final exchange's TCP connect, ms; 0 on a reused connection. */
  readonly connectingMs: number;
  /** The final exchange's TLS handshake, ms; 0 on a reused connection or without TLS. */
  readonly tlsMs: number;
  /** The final exchange's time to first byte less its connection's set-up, ms (http_req_waiting). */
  readonly waitingMs: number;
  /** From the final exchange's response headers to its end, ms. */
  readonly receivingMs: number;
  /** 'HTTP/1.1' or 'HTTP/2.0' (k6's spelling); '' when no response came. */
  readonly protocol: string;
}

/** The host's writer of records for the isolate. */
export const inbound = {
  entry(into: RecordValue[], vu: number, kind: EntryKind, token: number, it: number, exec = '') {
    into.push(vu, kind, token, it, exec);
  },
  ok(into: RecordValue[], vu: number, id: number, json: string) {
    into.push(vu, RECORD.OK, id, json, 0);
  },
  response(into: RecordValue[], vu: number, id: number, r: ResponseValues) {
    into.push(vu, RECORD.RESPONSE, id, r.status, r.fields, r.text, r.error, r.durationMs);
    into.push(r.events, r.firstEventMs, r.connectingMs, r.tlsMs, r.waitingMs, r.receivingMs);
    into.push(r.protocol);
  },
  failed(into: RecordValue[], vu: number, id: number, message: string) {
    into.push(vu, RECORD.FAILED, id, message, 0);
  },
  event(into: RecordValue[], vu: number, id: number, type: string | number, payload: RecordValue) {
    into.push(vu, RECORD.EVENT, id, type, payload);
  },
};

/** What the isolate's entry does with each kind of record (bootstrap.ts). */
export interface InboundReader {
  run(token: number, iteration: number, exec: string): void;
  ok(id: number, json: string): void;
  response(id: number, r: ResponseValues): void;
  failed(id: number, message: string): void;
  event(id: number, type: string | number, payload: RecordValue): void;
  setup(token: number): void;
  teardown(token: number): void;
}

/** A virtual user's entry: takes the records the host sends it (hub.ts calls it). */
export type Entry = (
  kind: RecordValue | undefined,
  a: RecordValue | undefined,
  b: RecordValue | undefined,
  c: RecordValue | undefined,
  d?: RecordValue,
  e?: RecordValue,
  f?: RecordValue,
  g?: RecordValue,
  h?: RecordValue,
  i?: RecordValue,
  j?: RecordValue,
  k?: RecordValue,
  l?: RecordValue,
  m?: RecordValue,
) => void;

/** The entry that decodes each record for `reader`. */
export function entryOf(reader: InboundReader): Entry {
  return (kind, a, b, c, d, e, f, g, h, i, j, k, l, m) => {
    const id = a as number;
    if (kind === RECORD.RUN) reader.run(id, b as number, c as string);
    else if (kind === RECORD.RESPONSE) {
      reader.response(id, {
        status: b as number,
        fields: c as number,
        text: d as string,
        error: e as string,
        durationMs: f as number,
        events: g as number,
        firstEventMs: h as number,
        connectingMs: i as number,
        tlsMs: j as number,
        waitingMs: k as number,
        receivingMs: l as number,
        protocol: m as string,
      });
    } else if (kind === RECORD.OK) reader.ok(id, b as string);
    else if (kind === RECORD.FAILED) reader.failed(id, b as string);
    else if (kind === RECORD.EVENT) reader.event(id, b as string | number, c as RecordValue);
    else if (kind === RECORD.SETUP) reader.setup(id);
    else if (kind === RECORD.TEARDOWN) reader.teardown(id);
  };
}

/** How an entry posts a record (the hub's post). */
export type Post = (
  vu: number,
  kind: number,
  a: RecordValue,
  b: RecordValue,
  c: RecordValue,
) => void;

/** The isolate's writer of records for the host. */
export const outbound = {
  bytes: (post: Post, vu: number, id: number, bytes: ArrayBuffer) =>
    post(vu, RECORD.BYTES, id, bytes, 0),
  start: (post: Post, vu: number, id: number, op: string, json: string) =>
    post(vu, RECORD.START, id, op, json),
  end: (post: Post, vu: number, token: number, json: string) =>
    post(vu, RECORD.END, token, json, 0),
  log: (post: Post, vu: number, level: string, text: string) =>
    post(vu, RECORD.LOG, level, text, 0),
};

/** What the host does with each record the isolate posted (runtime/script/sandbox.ts). */
export interface OutboundReader {
  /** Bytes of the operation `id` that the next START record (of the same id) starts. */
  bytes(vu: number, id: number, bytes: ArrayBuffer): void;
  start(vu: number, id: number, op: string, json: string): void;
  end(vu: number, token: number, json: string): void;
  /** A console call, or with level '', `dropped` calls the hub did not carry. */
  log(vu: number, level: string, text: string, dropped: number): void;
  fault(vu: number, message: string): void;
}

/** Reads the records a take() returned. */
export function readOutbound(posted: readonly RecordValue[], reader: OutboundReader): void {
  for (let i = 0; i < posted.length; i += RECORD_WIDTH) {
    const vu = posted[i] as number;
    const kind = posted[i + 1];
    const a = posted[i + 2];
    const b = posted[i + 3];
    if (kind === RECORD.START) reader.start(vu, a as number, b as string, posted[i + 4] as string);
    else if (kind === RECORD.BYTES) reader.bytes(vu, a as number, b as ArrayBuffer);
    else if (kind === RECORD.END) reader.end(vu, a as number, b as string);
    else if (kind === RECORD.LOG) reader.log(vu, a as string, b as string, posted[i + 4] as number);
    else if (kind === RECORD.FAULT) reader.fault(vu, a as string);
  }
}
