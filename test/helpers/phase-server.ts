/**
 * A target that times its own phases and keeps what scenarios report, for the k6 API tests
 * (test/e2e/scenario-k6-surface.test.ts): `/slow` answers its headers WAIT_MS after the request
 * came and its body RECEIVE_MS later, measuring both gaps itself; a path ending in `/report` keeps a posted JSON
 * document; every request's path, cookies and Authorization are kept in order.
 */
import type { Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The headers of /slow leave this many ms after its request came. */
export const WAIT_MS = 120;
/** The body of /slow ends this many ms after its headers. */
export const RECEIVE_MS = 80;

/** A request the server saw. */
export interface Seen {
  readonly path: string;
  readonly cookie: string | undefined;
  readonly authorization: string | undefined;
}

/** The server's handles. */
export interface PhaseServer {
  readonly url: string;
  readonly seen: Seen[];
  /** The documents posted to /report, parsed. */
  readonly reports: unknown[];
  /** /slow's gaps as the server measured them: [headers after request, end after headers] ms. */
  readonly slow: [number, number][];
  /** Extra routes: a handler returning true answered the request. */
  readonly routes: ((req: IncomingMessage, res: ServerResponse, body: string) => boolean)[];
}

/** Starts the server; closed in teardown. */
export async function phaseServer(t: Test): Promise<PhaseServer> {
  const state: Omit<PhaseServer, 'url'> = { seen: [], reports: [], slow: [], routes: [] };
  const server = createServer((req, res) => {
    const came = performance.now();
    const path = req.url ?? '/';
    state.seen.push({ path, cookie: req.headers.cookie, authorization: req.headers.authorization });
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (state.routes.some((route) => route(req, res, body))) return;
      if (path.endsWith('/report')) {
        state.reports.push(JSON.parse(body));
        res.end('ok');
      } else if (path === '/slow') slow(res, came, state.slow);
      else res.end('hello');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, ...state };
}

function slow(res: ServerResponse, came: number, gaps: [number, number][]): void {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    const headersAt = performance.now();
    setTimeout(() => {
      res.end('slow body');
      gaps.push([headersAt - came, performance.now() - headersAt]);
    }, RECEIVE_MS);
  }, WAIT_MS);
}
