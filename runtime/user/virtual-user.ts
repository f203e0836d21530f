/**
 * A virtual user (one worker): its random source, variable store, one keep-alive undici Client per
 * origin (so connections match the concurrency), and the reusable exchange. The segment's deadline
 * sweep reads `deadlineUs` to abort a request (or a WebSocket session's wait) past its timeout.
 */
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import buildConnector from 'undici/lib/core/connect.js';
import Client from 'undici/lib/dispatcher/client.js';
import type { Plan } from '../../model/plan/plan.js';
import type { Abortable } from '../../model/errors/barrage-error.js';
import type { Random } from '../../model/random.js';
import type { RequestOptions } from '../http/compiled-request.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { connectOptions, type TransportOptions } from '../http/connect-options.js';
import { protocolOf } from '../http/http-protocol.js';
import { UserCookies } from '../http/cookie-jar.js';
import { Exchange } from '../http/exchange.js';
import { ProxyRoutes } from '../http/proxy-route.js';
import { ProxyTunnels, tunnelConnector } from '../http/proxy-tunnel.js';
import { VariableStore } from '../vars/variable-store.js';

/** Options for the per-origin clients. */
export interface ClientOptions extends TransportOptions {
  readonly timeoutMs: number;
  /** The run's proxies; undefined when every connection is direct. */
  readonly proxy?: ProxyRoutes | undefined;
}

/**
 * The client options of a plan's workers, its proxy routes built: build them once and share them
 * among the workers, as one proxy's routes are.
 */
export function clientOptionsOf(
  plan: Pick<Plan, 'timeoutMs' | 'insecure' | 'tls' | 'http2' | 'proxy'>,
): ClientOptions {
  return {
    timeoutMs: plan.timeoutMs,
    insecure: plan.insecure,
    proxy: plan.proxy === undefined ? undefined : new ProxyRoutes(plan.proxy),
    tls: plan.tls,
    http2: plan.http2,
  };
}

/** One worker's state. */
export class VirtualUser {
  readonly vars: VariableStore;
  readonly exchange = new Exchange();
  /** Reused dispatch options (filled per request). */
  readonly options: RequestOptions = emptyOptions();
  /** Options of a redirect's next hop (`options` stays as filled, for a retry). */
  readonly hop: RequestOptions = emptyOptions();
  readonly cookies: UserCookies;
  /** The options of the last request sent (its last hop): the response's url. */
  sent: RequestOptions = this.options;
  /** Why the last request's redirect was not followed (too_many_redirects, url_not_allowed). */
  redirectKind: ErrorKind | undefined = undefined;
  /** Deadline of the request in flight, µs since dispatch start; 0 when none. */
  deadlineUs = 0;
  /** What else a hard stop cuts while it lasts: a WebSocket session, or a retry's backoff. */
  session: Abortable | undefined;
  /** True while the worker runs an iteration (or its setup), false while it waits for a permit. */
  busy = false;
  iteration = 0;
  /**
   * TCP connect and TLS handshake, µs, of the connection the request in flight opened (its last
   * hop's: the request path resets them at each send); -1 when it opened none (no TLS: tlsUs -1).
   */
  connectUs = -1;
  tlsUs = -1;
  /**
   * A streamed response's time to its first event or chunk (µs, as sse_time_to_first_event and
   * stream_time_to_first_chunk record it) for a script's `timings.firstEvent`; -1 before one came.
   */
  firstPieceUs = -1;
  readonly #clients = new Map<string, Client>();
  /** The origin of the request in flight (its client holds it). */
  #sentOrigin = '';
  /** CONNECT clients to the proxies, when the run has some (proxy-tunnel.ts). */
  #tunnels: ProxyTunnels | undefined;
  /** The protocol bit (http-protocol.ts) of each origin's latest connection. */
  readonly #protocols = new Map<string, number>();
  /**
   * Lanes of a scenario's http.batch(): more requests in flight at once, each with its own
   * exchange and connections, sharing this user's variables, cookies and random source. The
   * deadline sweep and a hard stop reach them through their owner.
   */
  readonly lanes: VirtualUser[] = [];

  constructor(
    readonly id: number,
    readonly random: Random,
    private readonly clientOptions: ClientOptions,
    owner?: VirtualUser,
  ) {
    this.vars = owner?.vars ?? new VariableStore();
    this.cookies = owner?.cookies ?? new UserCookies();
    this.#owned = owner === undefined;
  }

  readonly #owned: boolean;

  /** Batch lane `i` (1-based: lane 0 is this user), made when first needed. */
  lane(i: number): VirtualUser {
    if (i === 0) return this;
    while (this.lanes.length < i)
      this.lanes.push(new VirtualUser(this.id, this.random, this.clientOptions, this));
    return this.lanes[i - 1]!;
  }

  /** The url of the last response (after its redirects). */
  url(): string {
    return this.sent.origin + this.sent.path;
  }

  /** Aborts what is in flight (deadline passed, hard stop): the HTTP exchange or the session. */
  abort(reason: Error): void {
    this.abortOwn(reason);
    for (const lane of this.lanes) lane.abortOwn(reason);
  }

  /** Aborts what this user (or lane) itself has in flight, not its lanes' (a deadline passed). */
  abortOwn(reason: Error): void {
    if (!this.exchange.abort(reason)) this.#failQueued(reason);
    this.session?.abort(reason);
  }

  /** Sends `options` on `origin`'s client with this user's exchange (started by the caller). */
  send(origin: string, options: RequestOptions): void {
    this.#sentOrigin = origin;
    this.client(origin).dispatch(options, this.exchange);
  }

  /**
   * The request in flight is still in undici's queue, which no abort reaches (an HTTP/2 server
   * allowing no stream keeps it there forever): the client, this user's own, is destroyed with the
   * reason, which fails the queued request (the exchange completes as a timeout), and the next
   * request opens a new one.
   */
  #failQueued(reason: Error): void {
    const client = this.#clients.get(this.#sentOrigin);
    if (client === undefined) return;
    this.#clients.delete(this.#sentOrigin);
    void client.destroy(reason).catch(() => undefined);
  }

  /**
   * undici's own connector, timed: the socket it returns emits `connect` when TCP is up, and its
   * callback comes once the connection is ready (after the TLS handshake for https). Only opening a
   * connection passes here; a request on a kept-alive one costs nothing.
   */
  #connector(origin: string, timeout: number) {
    const base = buildConnector(connectOptions(this.clientOptions, origin, timeout));
    const timed: buildConnector.connector = (options, callback) => {
      const start = performance.now();
      let connected = -1;
      const socket: Socket = base(options, (...args) => {
        const at = performance.now();
        // Plain TCP: the callback is the connect itself (undici listens before we do).
        if (args[0] === null)
          this.#opened(
            origin,
            ((connected < 0 ? at : connected) - start) * 1000,
            connected < 0 ? -1 : (at - connected) * 1000,
            args[1],
          );
        callback(...args);
      });
      socket.once('connect', () => {
        connected = performance.now();
      });
      return socket;
    };
    const routes = this.clientOptions.proxy;
    if (routes === undefined) return timed;
    // Through a proxy, connecting is opening the tunnel (TCP to the proxy and its CONNECT answer).
    this.#tunnels ??= new ProxyTunnels(timeout);
    return tunnelConnector(routes, this.#tunnels, timed, base, (tunnelUs, tlsUs, socket) =>
      this.#opened(origin, tunnelUs, tlsUs, socket),
    );
  }

  /** A connection to `origin` opened, directly or through a tunnel: its timings and protocol. */
  #opened(origin: string, connectUs: number, tlsUs: number, socket: Socket): void {
    this.connectUs = connectUs;
    this.tlsUs = tlsUs;
    this.#protocols.set(origin, protocolOf(socket));
  }

  /** The keep-alive client for an origin, created on first use. */
  client(origin: string): Client {
    let client = this.#clients.get(origin);
    if (client === undefined) {
      const timeout = this.clientOptions.timeoutMs;
      client = new Client(origin, {
        pipelining: 1,
        // HTTP/1.1 as measured unless `http2: true` (undici 8 would otherwise negotiate HTTP/2).
        allowH2: this.clientOptions.http2,
        connect: this.#connector(origin, timeout),
        // Our deadline sweep covers the whole request; undici's own per-request timers would
        // only cost time on every request (0 disables them).
        headersTimeout: 0,
        bodyTimeout: 0,
        keepAliveTimeout: 30_000,
      });
      this.#clients.set(origin, client);
    }
    return client;
  }

  /** The protocol bit of `origin`'s latest connection; 0 before one opened. */
  protocolOf(origin: string): number {
    return this.#protocols.get(origin) ?? 0;
  }

  /** Closes every connection at once (the run is over; nothing is waited for). */
  async close(): Promise<void> {
    if (this.#owned) this.vars.end();
    await Promise.all([
      ...[...this.#clients.values()].map((c) => c.destroy()),
      ...this.lanes.map((lane) => lane.close()),
      this.#tunnels?.close(),
    ]);
    this.#clients.clear();
  }
}

function emptyOptions(): RequestOptions {
  return { origin: '', path: '/', method: 'GET', headers: [], body: null };
}
