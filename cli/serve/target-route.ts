/**
 * What a target-server route is: a name (its key in stats.byRoute), a path, and a plain
 * function. The server state every route may use is passed as the last argument, so the route
 * table stays static data and dispatching allocates nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ChatRooms } from './chat-rooms.js';
import type { SessionStore } from './session-store.js';
import type { TargetStatsCounter } from './target-stats.js';
import type { TokenStore } from './token-store.js';

/** Server-wide state shared by the routes; one per running server. */
export interface TargetContext {
  readonly stats: TargetStatsCounter;
  readonly tokens: TokenStore;
  /** The session app's sessions (/app/). */
  readonly sessions: SessionStore;
  /** The rooms of /ws/chat. */
  readonly chatRooms: ChatRooms;
  readonly tokenTtlSeconds: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly flakyEvery: number;
  /** Requests seen by /flaky since start or the last resetStats(). */
  flakyCount: number;
}

/**
 * Answers one request. `param` is the path after a prefix route's path ('' for exact routes);
 * `query` is the text after '?' ('' when none), still encoded.
 */
export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  param: string,
  query: string,
  context: TargetContext,
) => void | Promise<void>;

/** Takes over the socket of an HTTP upgrade (e.g. a WebSocket echo); the server destroys it on close(). */
export type UpgradeHandler = (
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  context: TargetContext,
) => void;

/** One entry of the route table. */
export interface TargetRoute {
  /** Key in stats.byRoute. */
  readonly name: string;
  /** Exact path ('/json'), or a prefix ending in '/' ('/delay/') whose rest becomes `param`. */
  readonly path: string;
  readonly handle: RouteHandler;
  /** Set by routes that accept an HTTP upgrade on the same path; others answer upgrades with 400. */
  readonly upgrade?: UpgradeHandler;
  /** True for introspection routes (/__stats) that must not disturb the counts they report. */
  readonly uncounted?: boolean;
}
