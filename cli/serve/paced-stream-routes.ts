/**
 * Streamed responses at a set pace, for `stream:` endpoints to time (docs/serve.md):
 *
 *   /sse?events=&every_ms=     a Server-Sent Events stream: `data: {"n":1}` to `{"n":events}`
 *   /chunks?lines=&every_ms=   a chunked NDJSON body: `{"n":1}` to `{"n":lines}`, a line a write
 *
 * One piece every `every_ms` ms, the first `every_ms` after the headers; then the response ends.
 * Bounded like /drip, so a typo cannot hold a connection for hours; a client that leaves stops
 * the timer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBoundedInt } from './bounded-int.js';
import { prebuildJson, sendPrebuilt } from './respond.js';

/** Most pieces one response streams. */
export const MAX_STREAM_PIECES = 10_000;
/** Longest pause between two pieces: 60 s. */
export const MAX_STREAM_EVERY_MS = 60_000;

/** One kind of paced stream: its route's name, its count parameter, its type and its pieces. */
interface StreamKind {
  readonly name: string;
  readonly count: string;
  readonly contentType: string;
  readonly piece: (n: number) => string;
}

type Route = (req: IncomingMessage, res: ServerResponse, param: string, query: string) => void;

/** The route that streams `kind`'s pieces at the pace its query asks. */
function pacedStream(kind: StreamKind): Route {
  const bad = prebuildJson(400, {
    error: `${kind.name} takes ${kind.count}=0..${MAX_STREAM_PIECES} and every_ms=0..${MAX_STREAM_EVERY_MS}`,
  });
  return (_req, res, _param, query) => {
    const params = new URLSearchParams(query);
    const count = parseBoundedInt(params.get(kind.count) ?? '10', 0, MAX_STREAM_PIECES);
    const every = parseBoundedInt(params.get('every_ms') ?? '100', 0, MAX_STREAM_EVERY_MS);
    if (count === undefined || every === undefined) return sendPrebuilt(res, bad);
    res.writeHead(200, { 'content-type': kind.contentType, 'cache-control': 'no-cache' });
    if (count === 0) return void res.end();
    writePaced(res, count, every, kind.piece);
  };
}

/**
 * Writes `count` pieces (at least one) after the headers, one every `everyMs` ms, the last with
 * the response's end; a client that leaves stops the timer. /drip writes its bytes this way too.
 */
export function writePaced(
  res: ServerResponse,
  count: number,
  everyMs: number,
  piece: (n: number) => string | Buffer,
): void {
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    sent++;
    if (sent < count) res.write(piece(sent));
    else {
      clearInterval(timer);
      res.end(piece(sent));
    }
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

/** /sse: Server-Sent Events at a set pace. */
export const sseRoute = pacedStream({
  name: 'sse',
  count: 'events',
  contentType: 'text/event-stream',
  piece: (n) => `data: {"n":${n}}\n\n`,
});

/** /chunks: NDJSON lines at a set pace. */
export const chunksRoute = pacedStream({
  name: 'chunks',
  count: 'lines',
  contentType: 'application/x-ndjson',
  piece: (n) => `{"n":${n}}\n`,
});
