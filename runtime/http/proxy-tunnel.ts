/**
 * Connections through a forward proxy (docs/configuration.md, "Proxies"): a CONNECT tunnel to the
 * origin, opened by undici's own CONNECT client, then TLS over it for https:// as undici's
 * ProxyAgent does. Every proxied origin is tunnelled, http:// included (undici's default too), so
 * the one Client per origin per virtual user, its keep-alive connections and their timings stay
 * as they are direct: only how a connection opens changes.
 */
import { BarrageError } from '../../model/errors/barrage-error.js';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import connect from 'undici/lib/api/api-connect.js';
import type { buildConnector as undiciConnector } from 'undici';
import Client from 'undici/lib/dispatcher/client.js';
import type { ProxyServer } from '../../model/plan/proxy-plan.js';
import { defaultPort, type ProxyRoutes } from './proxy-route.js';

/**
 * A tunnel the proxy would not open: it refused (`BARRAGE_PROXY_REFUSED`, its status in the
 * message) or failed (`BARRAGE_PROXY_FAILED`, undici's error as `cause`). The code is never
 * undici's UND_ERR_SOCKET: undici would keep the request queued and reconnect forever.
 */
export class ProxyTunnelError extends BarrageError {
  constructor(
    message: string,
    readonly code: 'BARRAGE_PROXY_REFUSED' | 'BARRAGE_PROXY_FAILED',
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProxyTunnelError';
  }
}

/** Called with the µs a proxied connection took: the tunnel, then TLS over it (-1: none). */
export type OnOpened = (tunnelUs: number, tlsUs: number, socket: Socket) => void;

/** One owner's CONNECT clients, one per proxy server; each tunnel takes its client's socket. */
export class ProxyTunnels {
  readonly #clients = new Map<string, Client>();

  constructor(private readonly timeoutMs: number) {}

  /** A tunnel to `authority` (host:port) through `server`. */
  async open(server: ProxyServer, authority: string): Promise<Socket> {
    const headers: Record<string, string> = { host: authority };
    if (server.authorization !== undefined) headers['proxy-authorization'] = server.authorization;
    let answer;
    try {
      answer = await connect.call(this.#client(server.origin), {
        origin: server.origin,
        path: authority,
        headers,
      });
    } catch (error) {
      throw new ProxyTunnelError(
        `proxy ${server.origin} failed to open a tunnel`,
        'BARRAGE_PROXY_FAILED',
        {
          cause: error,
        },
      );
    }
    if (answer.statusCode !== 200) {
      answer.socket.on('error', () => {}).destroy();
      throw new ProxyTunnelError(
        `proxy ${server.origin} refused a tunnel to ${authority} (status ${answer.statusCode})`,
        'BARRAGE_PROXY_REFUSED',
      );
    }
    return answer.socket as Socket;
  }

  /** Closes the CONNECT clients (their tunnels belong to the connections that use them). */
  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.destroy()));
    this.#clients.clear();
  }

  #client(origin: string): Client {
    let client = this.#clients.get(origin);
    if (client === undefined) {
      const timeout = this.timeoutMs;
      client = new Client(origin, { connect: { timeout }, headersTimeout: timeout });
      this.#clients.set(origin, client);
    }
    return client;
  }
}

/**
 * A connector that opens the connections `routes` sends through a proxy as tunnels (TLS over them
 * by `tls`, given the tunnel as `httpSocket`) and the others with `direct`.
 */
export function tunnelConnector(
  routes: ProxyRoutes,
  tunnels: ProxyTunnels,
  direct: undiciConnector.connector,
  tls: undiciConnector.connector,
  onOpened: OnOpened,
): undiciConnector.connector {
  return (options, callback) => {
    const port = options.port === '' ? defaultPort(options.protocol) : Number(options.port);
    const server = routes.serverFor(options.protocol, options.hostname, port);
    if (server === undefined) {
      direct(options, callback);
      return;
    }
    const start = performance.now();
    tunnels.open(server, `${options.hostname}:${port}`).then(
      (socket) => {
        const opened = performance.now();
        const tunnelUs = (opened - start) * 1000;
        if (options.protocol !== 'https:') {
          onOpened(tunnelUs, -1, socket);
          callback(null, socket);
          return;
        }
        tls({ ...options, httpSocket: socket }, (...args) => {
          if (args[0] === null) onOpened(tunnelUs, (performance.now() - opened) * 1000, args[1]);
          else socket.destroy();
          callback(...args);
        });
      },
      (error: Error) => callback(error, null),
    );
  };
}
