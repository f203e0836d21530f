/**
 * A streaming server for the stream tests, with plain Node streams on 127.0.0.1, that measures its
 * own pacing: when each request arrived and when it wrote each piece. Its routes:
 *   /warm     "ok" at once, not a stream
 *   /sse      `count` Server-Sent Events `data: {"n":i}`, one every `everyMs`
 *   /ndjson   `count` NDJSON lines `{"n":i}`, one write every `everyMs`
 *   /json     one JSON document `{"parts":[1,2,3]}` in three writes `everyMs` apart
 *   /stall    one NDJSON line, then nothing until the client leaves
 *   /sse-stall  one Server-Sent Event, then nothing until the client leaves
 * The first write of a stream comes `everyMs` after its request.
 */
import type { Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** What the server measured of its streams: ms from arrival to the first write, and between writes. */
export interface Paced {
  readonly firstMs: number[];
  readonly gapsMs: number[];
  /** Writes of the streams in all. */
  writes: number;
}

/** The pieces a route writes, or undefined for a route that is none of the streams. */
function piecesOf(path: string, count: number): { type: string; pieces: string[] } | undefined {
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  if (path === '/sse')
    return { type: 'text/event-stream', pieces: numbers.map((n) => `data: {"n":${n}}\n\n`) };
  if (path === '/ndjson')
    return { type: 'application/x-ndjson', pieces: numbers.map((n) => `{"n":${n}}\n`) };
  if (path === '/json') return { type: 'application/json', pieces: ['{"parts":[1', ',2', ',3]}'] };
  if (path === '/stall') return { type: 'application/x-ndjson', pieces: ['{"n":1}\n'] };
  if (path === '/sse-stall') return { type: 'text/event-stream', pieces: ['data: {"n":1}\n\n'] };
  return undefined;
}

/** Starts the server, closed in the test's teardown; its url and what it measured. */
export async function pacedStreamServer(
  t: Test,
  count: number,
  everyMs: number,
): Promise<{ url: string; paced: Paced }> {
  const paced: Paced = { firstMs: [], gapsMs: [], writes: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = piecesOf(new URL(req.url ?? '/', 'http://x').pathname, count);
    if (route === undefined) return void res.end('ok');
    const arrived = performance.now();
    res.writeHead(200, { 'content-type': route.type });
    res.flushHeaders();
    const stalls = req.url === '/stall' || req.url === '/sse-stall';
    let sent = 0;
    let last = arrived;
    const timer = setInterval(() => {
      if (sent === route.pieces.length) return clearInterval(timer);
      const now = performance.now();
      if (sent === 0) paced.firstMs.push(now - arrived);
      else paced.gapsMs.push(now - last);
      last = now;
      paced.writes++;
      const piece = route.pieces[sent++]!;
      if (sent < route.pieces.length || stalls) res.write(piece);
      else {
        clearInterval(timer);
        res.end(piece);
      }
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paced };
}

/** The median of some values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * How far a stream's median may lie from the server's own clock. The server flushes its headers as
 * each request arrives, so the client's median time to first byte is the way there and back plus
 * however late its busy event loop read them (50 streams share one process): 15 ms plus that
 * recorded lateness, so an idle machine is held tight and a busy one is not failed.
 */
export function streamSlackMs(firstByteP50: number): number {
  return 15 + firstByteP50;
}
