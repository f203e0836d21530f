/**
 * How a WebSocket session's connection opens (docs/configuration.md, "TLS and HTTP/2" and
 * "Proxies"), as options of the `ws` client:
 *
 *   wss://host:port   the `tls:` settings of https://host:port (that origin's own when listed under
 *                     `origins`, else the run's), as one secure context built once per origin
 *   through a proxy   ws:// routed as http://, wss:// as https:// (NO_PROXY applying): a CONNECT
 *                     tunnel (proxy-tunnel.ts), with TLS over it for wss://
 *
 * ws hands its `createConnection` to node:http's request, which also takes the socket through a
 * callback (documented under agent.createConnection), so the tunnel opens inside the handshake:
 * ws_connecting spans TCP to the proxy, its CONNECT answer, TLS and the upgrade, as it spans TCP,
 * TLS and the upgrade when direct. Each tunnel has its own CONNECT client, closed once the tunnel
 * is open (the tunnel's socket outlives it): sessions of one segment open theirs side by side.
 */
import { isIP, type Socket } from 'node:net';
import { connect as connectTls, createSecureContext, type SecureContext } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { ClientOptions } from 'ws';
import type { ProxyServer } from '../../model/plan/proxy-plan.js';
import { tlsConnectOptions, type ConnectionSettings } from '../http/connect-options.js';
import { defaultPort, ProxyRoutes, unbracket } from '../http/proxy-route.js';
import { ProxyTunnels } from '../http/proxy-tunnel.js';

/** What the `ws` client takes to open a connection to one origin. */
export type WsConnectOptions = Pick<ClientOptions, 'rejectUnauthorized' | 'createConnection'> & {
  readonly secureContext?: SecureContext;
  readonly servername?: string;
};

/** node:http's createConnection with its callback (http.request's, agent.createConnection's). */
type CreateConnection = (
  options: unknown,
  oncreate: (error: Error | null, socket?: Duplex) => void,
) => undefined;

/** Origins whose options are kept; a scenario's urls past that many are worked out per session. */
const MAX_KEPT_ORIGINS = 256;

/** The connection options of a segment's sessions, by origin, worked out once per origin. */
export class WsTransport {
  readonly #options: ConnectionSettings;
  readonly #routes: ProxyRoutes | undefined;
  readonly #kept = new Map<string, WsConnectOptions>();

  constructor(options: ConnectionSettings) {
    this.#options = options;
    this.#routes = options.proxy === undefined ? undefined : new ProxyRoutes(options.proxy);
  }

  /** The ws options that open `url`'s connection; none for a url ws will refuse itself. */
  connectOptions(url: string): WsConnectOptions {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return {};
    }
    const origin = `${parsed.protocol}//${parsed.host}`;
    let options = this.#kept.get(origin);
    if (options === undefined) {
      options = this.#build(parsed);
      if (this.#kept.size < MAX_KEPT_ORIGINS) this.#kept.set(origin, options);
    }
    return options;
  }

  #build(url: URL): WsConnectOptions {
    const secure = url.protocol === 'wss:';
    const tls = secure ? this.#tls(url) : undefined;
    const port = url.port === '' ? defaultPort(url.protocol) : Number(url.port);
    const server = this.#routes?.serverFor(url.protocol, url.hostname, port);
    if (server === undefined) return tls ?? {};
    const connect = tunnelled(server, `${url.hostname}:${port}`, tls, url.hostname, this.#options);
    return { createConnection: connect as unknown as ClientOptions['createConnection'] };
  }

  /** wss://host:port's TLS options: those of https://host:port. */
  #tls(url: URL): WsConnectOptions {
    const { rejectUnauthorized, servername, ...context } = tlsConnectOptions(
      this.#options,
      `https://${url.host}`,
    );
    if (Object.keys(context).length === 0)
      return { rejectUnauthorized, ...(servername === undefined ? {} : { servername }) };
    return {
      rejectUnauthorized,
      secureContext: createSecureContext(context),
      ...(servername === undefined ? {} : { servername }),
    };
  }
}

/**
 * A createConnection that opens a tunnel to `authority` through `server`, then TLS over it with
 * `tls` (wss://): the SNI is `tls.servername`, else the host unless it is an address (as ws does);
 * the certificate is checked against the SNI, else the host.
 */
function tunnelled(
  server: ProxyServer,
  authority: string,
  tls: WsConnectOptions | undefined,
  hostname: string,
  options: ConnectionSettings,
): CreateConnection {
  const host = unbracket(hostname);
  const servername = tls?.servername ?? (isIP(host) === 0 ? host : '');
  return (_request, oncreate) => {
    const tunnels = new ProxyTunnels(options.timeoutMs);
    tunnels
      .open(server, authority)
      .then(
        (socket: Socket) =>
          oncreate(
            null,
            tls === undefined ? socket : connectTls({ ...tls, host, servername, socket }),
          ),
        (error: Error) => oncreate(error),
      )
      .finally(() => void tunnels.close());
    return undefined;
  };
}
