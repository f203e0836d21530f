/**
 * The embedded target server that `barrage serve`, `barrage demo`, the tests and the benchmarks
 * run against: plain node:http, bound to 127.0.0.1 unless told otherwise, with the route table
 * of target-routes.ts. It is a benchmark target, so the per-request path is a Map lookup, two
 * counter increments and a prebuilt response.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import type { TargetContext, TargetRoute } from './target-route.js';
import { ChatRooms, MAX_CHAT_MEMBERS, MAX_CHAT_ROOMS } from './chat-rooms.js';
import { SESSION_STORE_CAPACITY, SessionStore } from './session-store.js';
import { NOT_FOUND_ROUTE, TARGET_ROUTES } from './target-routes.js';
import { TargetStatsCounter, type TargetStats } from './target-stats.js';
import { TokenStore } from './token-store.js';

/** The stats type, re-exported because TargetServer.stats() returns it. */
export type { TargetStats } from './target-stats.js';

/** How to start the target server; every field is optional. */
export interface TargetServerOptions {
  /** Interface to bind; default '127.0.0.1' (never all interfaces unless asked). */
  host?: string | undefined;
  /** Port to bind; default 0 = an ephemeral port (read it back from `port` / `url`). */
  port?: number | undefined;
  /** Lifetime of /oauth/token tokens in seconds (may be fractional); default 3600. */
  tokenTtlSeconds?: number | undefined;
  /** Client id /oauth/token accepts; default 'barrage-demo'. */
  clientId?: string | undefined;
  /** Client secret /oauth/token accepts; default 'demo-secret'. */
  clientSecret?: string | undefined;
  /** /flaky answers 503 to every flakyEvery-th request, 200 otherwise; default 5. */
  flakyEvery?: number | undefined;
  /** Sessions the /app/ session app keeps before dropping the oldest; default 100,000. */
  sessionCapacity?: number | undefined;
  /** Members a /ws/chat room holds before refusing the next with 503; default 1000. */
  chatMaxMembers?: number | undefined;
  /** Rooms /ws/chat holds at once before refusing a new one with 503; default 10,000. */
  chatMaxRooms?: number | undefined;
}

/** A running target server. */
export interface TargetServer {
  /** Base URL without a trailing slash, e.g. 'http://127.0.0.1:54321'. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** A snapshot of the request counters. */
  stats(): TargetStats;
  /** Zeroes the counters and restarts the /flaky sequence. */
  resetStats(): void;
  /** Stops listening and destroys every connection, idle or busy; safe to call twice. */
  close(): Promise<void>;
}

// Above the 5 s node default and the usual 60 s of load balancers, so a load generator's pooled
// connections are never cut under it; headersTimeout must exceed keepAliveTimeout (node docs).
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const HEADERS_TIMEOUT_MS = 66_000;

interface RouteEntry {
  readonly route: TargetRoute;
  /** Index in the stats counter; -1 for uncounted routes. */
  readonly index: number;
  /** Length of the path to cut before `param`; 0 for exact routes. */
  readonly prefixLength: number;
}

/** Resolves a path to its route entry: exact paths first, then the longest prefix route. */
type RouteLookup = (pathname: string) => RouteEntry;

function buildLookup(routes: readonly TargetRoute[], notFound: TargetRoute): RouteLookup {
  const exact = new Map<string, RouteEntry>();
  const prefixes = new Map<string, RouteEntry>();
  let index = 0;
  for (const route of routes) {
    const prefix = route.path.length > 1 && route.path.endsWith('/');
    const entry = {
      route,
      index: route.uncounted === true ? -1 : index++,
      prefixLength: prefix ? route.path.length : 0,
    };
    (prefix ? prefixes : exact).set(route.path, entry);
  }
  const fallback: RouteEntry = { route: notFound, index, prefixLength: 0 };
  return (pathname) => {
    const found = exact.get(pathname);
    if (found !== undefined) return found;
    // Longest prefix first (/app/products/ before /app/), one Map lookup per '/' walked back:
    // a single one for the one-level prefixes (/delay/100).
    for (let cut = pathname.lastIndexOf('/'); cut > 0; cut = pathname.lastIndexOf('/', cut - 1)) {
      const prefix = prefixes.get(pathname.slice(0, cut + 1));
      if (prefix !== undefined) return prefix;
    }
    return fallback;
  };
}

function countedNames(routes: readonly TargetRoute[], notFound: TargetRoute): string[] {
  return [...routes.filter((route) => route.uncounted !== true), notFound].map((r) => r.name);
}

/** The options with every default filled in. */
type ResolvedOptions = {
  [K in keyof TargetServerOptions]-?: Exclude<TargetServerOptions[K], undefined>;
};

/** Fills the defaults and reports every invalid option at once. */
function validated(options: TargetServerOptions): ResolvedOptions {
  const resolved = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    clientId: options.clientId ?? 'barrage-demo',
    clientSecret: options.clientSecret ?? 'demo-secret',
    flakyEvery: options.flakyEvery ?? 5,
    sessionCapacity: options.sessionCapacity ?? SESSION_STORE_CAPACITY,
    chatMaxMembers: options.chatMaxMembers ?? MAX_CHAT_MEMBERS,
    chatMaxRooms: options.chatMaxRooms ?? MAX_CHAT_ROOMS,
  };
  const problems: string[] = [];
  const { port, tokenTtlSeconds, flakyEvery, sessionCapacity } = resolved;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`port must be an integer 0..65535, got ${port}`);
  }
  if (!Number.isFinite(tokenTtlSeconds) || tokenTtlSeconds <= 0) {
    problems.push(`tokenTtlSeconds must be a positive number, got ${tokenTtlSeconds}`);
  }
  if (!Number.isInteger(flakyEvery) || flakyEvery < 1) {
    problems.push(`flakyEvery must be an integer >= 1, got ${flakyEvery}`);
  }
  if (!Number.isInteger(sessionCapacity) || sessionCapacity < 1) {
    problems.push(`sessionCapacity must be an integer >= 1, got ${sessionCapacity}`);
  }
  for (const key of ['chatMaxMembers', 'chatMaxRooms'] as const) {
    const value = resolved[key];
    if (!Number.isInteger(value) || value < 1) {
      problems.push(`${key} must be an integer >= 1, got ${value}`);
    }
  }
  if (problems.length > 0) throw new RangeError(`target server: ${problems.join('; ')}`);
  return resolved;
}

/** A request the route threw on or rejected: 500 if nothing was sent yet, else cut it. */
function failRequest(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent || req.destroyed) {
    res.destroy();
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  const body = JSON.stringify({ error: 'internal error', message });
  res.writeHead(500, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Starts the embedded target server and resolves once it listens. */
export async function startTargetServer(options: TargetServerOptions = {}): Promise<TargetServer> {
  const settings = validated(options);
  const now = (): number => performance.now();
  const context: TargetContext = {
    stats: new TargetStatsCounter(countedNames(TARGET_ROUTES, NOT_FOUND_ROUTE), now),
    tokens: new TokenStore(now),
    sessions: new SessionStore(settings.sessionCapacity),
    chatRooms: new ChatRooms(settings.chatMaxMembers, settings.chatMaxRooms),
    tokenTtlSeconds: settings.tokenTtlSeconds,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    flakyEvery: settings.flakyEvery,
    flakyCount: 0,
  };
  const lookup = buildLookup(TARGET_ROUTES, NOT_FOUND_ROUTE);
  const server = createServer((req, res) => onRequest(req, res, lookup, context));
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    onUpgrade(req, socket, head, { lookup, context, upgraded }),
  );
  await listen(server, settings.port, settings.host);
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`,
    port,
    host: settings.host,
    stats: () => context.stats.snapshot(),
    resetStats: () => {
      context.stats.reset();
      context.flakyCount = 0;
    },
    close: () => (closing ??= closeServer(server, upgraded)),
  };
}

function onRequest(
  req: IncomingMessage,
  res: ServerResponse,
  lookup: RouteLookup,
  context: TargetContext,
): void {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const pathname = mark === -1 ? url : url.slice(0, mark);
  const entry = lookup(pathname);
  if (entry.index !== -1) context.stats.count(entry.index);
  const param = entry.prefixLength === 0 ? '' : pathname.slice(entry.prefixLength);
  try {
    const pending = entry.route.handle(
      req,
      res,
      param,
      mark === -1 ? '' : url.slice(mark + 1),
      context,
    );
    if (pending !== undefined) pending.catch((error: unknown) => failRequest(req, res, error));
  } catch (error) {
    failRequest(req, res, error);
  }
}

interface UpgradeState {
  readonly lookup: RouteLookup;
  readonly context: TargetContext;
  /** Upgraded sockets leave node's connection tracking, so close() destroys them from here. */
  readonly upgraded: Set<Duplex>;
}

function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, state: UpgradeState): void {
  // Node removes its own socket error handler before emitting 'upgrade'; without one a client
  // reset would crash the process.
  socket.on('error', () => socket.destroy());
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const entry = state.lookup(mark === -1 ? url : url.slice(0, mark));
  if (entry.index !== -1) state.context.stats.count(entry.index);
  state.upgraded.add(socket);
  socket.on('close', () => state.upgraded.delete(socket));
  const upgrade = entry.route.upgrade;
  if (upgrade === undefined) {
    socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  upgrade(req, socket, head, state.context);
}

function listen(
  server: ReturnType<typeof createServer>,
  port: number,
  host: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(
  server: ReturnType<typeof createServer>,
  upgraded: Set<Duplex>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)));
    // close() alone waits for busy connections (a /delay/60000, a slow /drip) to finish.
    server.closeAllConnections();
    for (const socket of upgraded) socket.destroy();
  });
}
