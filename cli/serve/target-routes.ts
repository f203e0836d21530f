/**
 * The target server's route table: one plain function per route. Exact paths are matched
 * first, then the longest prefix ending in '/'. To add a route, write its function here or in
 * its own file and add one entry to TARGET_ROUTES; an `upgrade` handler on the entry receives
 * HTTP upgrades for that path (as /ws/echo's and /ws/chat's do).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loginRoute, meRoute } from './bearer-auth-routes.js';
import { parseBoundedInt } from './bounded-int.js';
import { oauthTokenRoute } from './oauth-token-route.js';
import { productRoute, productsRoute } from './product-routes.js';
import { readBody } from './read-body.js';
import { chunksRoute, sseRoute, writePaced } from './paced-stream-routes.js';
import {
  PAYLOAD_TOO_LARGE,
  prebuild,
  prebuildJson,
  sendJson,
  sendPrebuilt,
  type PrebuiltResponse,
} from './respond.js';
import { appDashboardRoute, appLoginRoute, appLogoutRoute } from './session-app-routes.js';
import type { TargetContext, TargetRoute } from './target-route.js';
import { wsChatRequest, wsChatUpgrade } from './ws-chat-route.js';
import { wsEchoRequest, wsEchoUpgrade } from './ws-echo-route.js';

/** Largest body /bytes/:n and /drip serve: 10 MiB. */
export const MAX_BYTES = 10 * 1024 * 1024;
/** Longest wait /delay/:ms and the /drip interval accept: 60 s. */
export const MAX_DELAY_MS = 60_000;

const ROOT = prebuild(200, 'text/plain; charset=utf-8', 'barrage target server\n');
const JSON_OK = prebuildJson(200, {
  ok: true,
  items: [
    { id: 1, name: 'alpha' },
    { id: 2, name: 'beta' },
  ],
});
const FLAKY_OK = prebuildJson(200, { ok: true });
const FLAKY_FAIL = prebuildJson(503, { error: 'flaky' });
const NOT_FOUND = prebuildJson(404, { error: 'not found' });
const BAD_DELAY = prebuildJson(400, { error: `delay must be an integer 0..${MAX_DELAY_MS}` });
const BAD_STATUS = prebuildJson(400, { error: 'status must be an integer 200..599' });
const BAD_BYTES = prebuildJson(400, { error: `bytes must be an integer 0..${MAX_BYTES}` });
const BAD_DRIP = prebuildJson(400, {
  error: `drip takes bytes=0..${MAX_BYTES} and interval=0..${MAX_DELAY_MS}`,
});
const BYTES_HEADERS = { 'content-type': 'application/octet-stream' } as const;
const ONE_BYTE = Buffer.from('*');

// One /status/:code response per code, built on first use: 400 small buffers at most.
const statusResponses = new Map<number, PrebuiltResponse>();
// Shared by every /bytes response and never written after allocation, so sharing is safe.
let bytesPool: Buffer | undefined;

function root(_req: IncomingMessage, res: ServerResponse): void {
  sendPrebuilt(res, ROOT);
}

function json(_req: IncomingMessage, res: ServerResponse): void {
  sendPrebuilt(res, JSON_OK);
}

function delay(_req: IncomingMessage, res: ServerResponse, param: string): void {
  const ms = parseBoundedInt(param, 0, MAX_DELAY_MS);
  if (ms === undefined) return sendPrebuilt(res, BAD_DELAY);
  const timer = setTimeout(() => sendJson(res, 200, `{"delayed_ms":${ms}}`), ms);
  // A client that gives up (or close()) must not leave a timer writing to a dead socket.
  res.on('close', () => clearTimeout(timer));
}

function status(_req: IncomingMessage, res: ServerResponse, param: string): void {
  const code = parseBoundedInt(param, 200, 599);
  if (code === undefined) return sendPrebuilt(res, BAD_STATUS);
  let response = statusResponses.get(code);
  if (response === undefined) {
    // 204, 205 and 304 must not carry content (RFC 9110 §15.3.5, §15.3.6, §15.4.5).
    response =
      code === 204 || code === 205 || code === 304
        ? { status: code, headers: { 'content-length': 0 }, body: Buffer.alloc(0) }
        : prebuildJson(code, { status: code });
    statusResponses.set(code, response);
  }
  sendPrebuilt(res, response);
}

function flaky(
  _req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): void {
  context.flakyCount++;
  sendPrebuilt(res, context.flakyCount % context.flakyEvery === 0 ? FLAKY_FAIL : FLAKY_OK);
}

/** Query parameters as an object; a repeated key becomes an array of its values. */
function queryObject(query: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const seen = result[key];
    if (seen === undefined) result[key] = value;
    else if (typeof seen === 'string') result[key] = [seen, value];
    else seen.push(value);
  }
  return result;
}

async function echo(req: IncomingMessage, res: ServerResponse, _p: string, query: string) {
  const body = await readBody(req);
  if (body === null) return sendPrebuilt(res, PAYLOAD_TOO_LARGE);
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const echoed = {
    method: req.method,
    path: mark === -1 ? url : url.slice(0, mark),
    query: queryObject(query),
    headers: req.headers,
    body: body.toString('utf8'),
  };
  sendJson(res, 200, JSON.stringify(echoed));
}

function drip(_req: IncomingMessage, res: ServerResponse, _param: string, query: string): void {
  const params = new URLSearchParams(query);
  const bytes = parseBoundedInt(params.get('bytes') ?? '10', 0, MAX_BYTES);
  const interval = parseBoundedInt(params.get('interval') ?? '100', 0, MAX_DELAY_MS);
  if (bytes === undefined || interval === undefined) return sendPrebuilt(res, BAD_DRIP);
  // The length is announced up front so a client waits for the whole (slow) body.
  res.writeHead(200, { ...BYTES_HEADERS, 'content-length': bytes });
  if (bytes === 0) return void res.end();
  writePaced(res, bytes, interval, () => ONE_BYTE);
}

function bytes(_req: IncomingMessage, res: ServerResponse, param: string): void {
  const n = parseBoundedInt(param, 0, MAX_BYTES);
  if (n === undefined) return sendPrebuilt(res, BAD_BYTES);
  bytesPool ??= Buffer.alloc(MAX_BYTES, 'x');
  res.writeHead(200, { ...BYTES_HEADERS, 'content-length': n });
  res.end(bytesPool.subarray(0, n));
}

function statsRoute(
  _req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): void {
  sendJson(res, 200, JSON.stringify(context.stats.snapshot()));
}

function notFound(_req: IncomingMessage, res: ServerResponse): void {
  sendPrebuilt(res, NOT_FOUND);
}

/** Every route the target server answers; the order is the order of stats.byRoute. */
export const TARGET_ROUTES: readonly TargetRoute[] = [
  { name: 'root', path: '/', handle: root },
  { name: 'json', path: '/json', handle: json },
  { name: 'delay', path: '/delay/', handle: delay },
  { name: 'status', path: '/status/', handle: status },
  { name: 'login', path: '/login', handle: loginRoute },
  { name: 'me', path: '/me', handle: meRoute },
  { name: 'oauth_token', path: '/oauth/token', handle: oauthTokenRoute },
  { name: 'flaky', path: '/flaky', handle: flaky },
  { name: 'echo', path: '/echo', handle: echo },
  { name: 'drip', path: '/drip', handle: drip },
  { name: 'sse', path: '/sse', handle: sseRoute },
  { name: 'chunks', path: '/chunks', handle: chunksRoute },
  { name: 'bytes', path: '/bytes/', handle: bytes },
  { name: 'ws_echo', path: '/ws/echo', handle: wsEchoRequest, upgrade: wsEchoUpgrade },
  { name: 'ws_chat', path: '/ws/chat', handle: wsChatRequest, upgrade: wsChatUpgrade },
  { name: 'app_login', path: '/app/login', handle: appLoginRoute },
  { name: 'app_dashboard', path: '/app/dashboard', handle: appDashboardRoute },
  { name: 'app_logout', path: '/app/logout', handle: appLogoutRoute },
  { name: 'app_products', path: '/app/products', handle: productsRoute },
  { name: 'app_product', path: '/app/products/', handle: productRoute },
  { name: '__stats', path: '/__stats', handle: statsRoute, uncounted: true },
];

/** What answers a path no entry of TARGET_ROUTES matches. */
export const NOT_FOUND_ROUTE: TargetRoute = { name: 'not_found', path: '', handle: notFound };
