/**
 * /chunks?lines=&every_ms=: a chunked NDJSON body of `lines` lines (`{"n":1}` to `{"n":lines}`),
 * one written every `every_ms` ms, the first one `every_ms` after the headers; then the response
 * ends. Bounded as /sse is, so a typo cannot hold a connection for hours.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBoundedInt } from './bounded-int.js';
import { prebuildJson, sendPrebuilt } from './respond.js';
import { MAX_SSE_EVENTS, MAX_SSE_EVERY_MS } from './sse-route.js';

const BAD_CHUNKS = prebuildJson(400, {
  error: `chunks takes lines=0..${MAX_SSE_EVENTS} and every_ms=0..${MAX_SSE_EVERY_MS}`,
});

/** Writes the lines at their pace; a client that leaves stops the timer. */
export function chunksRoute(
  _req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  query: string,
): void {
  const params = new URLSearchParams(query);
  const lines = parseBoundedInt(params.get('lines') ?? '10', 0, MAX_SSE_EVENTS);
  const every = parseBoundedInt(params.get('every_ms') ?? '100', 0, MAX_SSE_EVERY_MS);
  if (lines === undefined || every === undefined) return sendPrebuilt(res, BAD_CHUNKS);
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' });
  if (lines === 0) return void res.end();
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    sent++;
    const line = `{"n":${sent}}\n`;
    if (sent < lines) res.write(line);
    else {
      clearInterval(timer);
      res.end(line);
    }
  }, every);
  res.on('close', () => clearInterval(timer));
}
