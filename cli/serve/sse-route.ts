/**
 * /sse?events=&every_ms=: a Server-Sent Events stream of `events` events (`data: {"n":1}` to
 * `{"n":events}`), one every `every_ms` ms, the first one `every_ms` after the headers; then the
 * response ends. Bounded like /drip, so a typo cannot hold a connection for hours.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBoundedInt } from './bounded-int.js';
import { prebuildJson, sendPrebuilt } from './respond.js';

/** Most events one /sse response streams. */
export const MAX_SSE_EVENTS = 10_000;
/** Longest pause between two /sse events: 60 s. */
export const MAX_SSE_EVERY_MS = 60_000;

const BAD_SSE = prebuildJson(400, {
  error: `sse takes events=0..${MAX_SSE_EVENTS} and every_ms=0..${MAX_SSE_EVERY_MS}`,
});

/** Streams the events at their pace; a client that leaves stops the timer. */
export function sseRoute(
  _req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  query: string,
): void {
  const params = new URLSearchParams(query);
  const events = parseBoundedInt(params.get('events') ?? '10', 0, MAX_SSE_EVENTS);
  const every = parseBoundedInt(params.get('every_ms') ?? '100', 0, MAX_SSE_EVERY_MS);
  if (events === undefined || every === undefined) return sendPrebuilt(res, BAD_SSE);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (events === 0) return void res.end();
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    sent++;
    const event = `data: {"n":${sent}}\n\n`;
    if (sent < events) res.write(event);
    else {
      clearInterval(timer);
      res.end(event);
    }
  }, every);
  res.on('close', () => clearInterval(timer));
}
