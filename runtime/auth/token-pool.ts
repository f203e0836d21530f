/**
 * The keep-alive pool token requests go through (token-request.ts), on undici's Agent and
 * request(). Imported at a provider's first token request: undici's index brings its whole API
 * (fetch, mocks, caches…), which costs a start about 15 ms, and a run without oauth2 never needs
 * it (the workers' Clients come from undici's client module alone: virtual-user.ts).
 */
import { Agent, buildConnector, request } from 'undici';
import { tlsConnectOptions, type ConnectionSettings } from '../http/connect-options.js';
import { ProxyRoutes } from '../http/proxy-route.js';
import { ProxyTunnels, tunnelConnector } from '../http/proxy-tunnel.js';

/** What a token endpoint answered: its status and its body as a stream. */
export interface TokenAnswer {
  readonly statusCode: number;
  readonly body: AsyncIterable<Buffer> & { destroy(): void };
}

/** A pool of connections to token endpoints. */
export interface TokenPool {
  /** POSTs `body` with `headers`; rejects on network failures (undici's errors, with codes). */
  post(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    signal: AbortSignal,
  ): Promise<TokenAnswer>;
  close(): Promise<void>;
}

/**
 * A pool to the token URL's origin `origin`: connect timeout `timeoutMs`, TLS certificates checked
 * unless `insecure`, the origin's `tls:` settings (a client certificate for an identity provider
 * that wants one), and the run's proxies as target requests have them (proxy-tunnel.ts).
 */
export function openTokenPool(origin: string, transport: ConnectionSettings): TokenPool {
  const { timeoutMs, proxy } = transport;
  const connect = buildConnector({ timeout: timeoutMs, ...tlsConnectOptions(transport, origin) });
  const tunnels = proxy === undefined ? undefined : new ProxyTunnels(timeoutMs);
  const agent = new Agent({
    connect:
      tunnels === undefined
        ? connect
        : tunnelConnector(new ProxyRoutes(proxy!), tunnels, connect, connect, () => {}),
    // The caller's deadline covers the whole exchange; these are only a backstop behind it.
    headersTimeout: timeoutMs + 1000,
    bodyTimeout: timeoutMs + 1000,
  });
  return {
    post: (url, headers, body, signal) =>
      request(url, { method: 'POST', headers, body, dispatcher: agent, signal }),
    close: async () => {
      await Promise.all([agent.destroy(), tunnels?.close()]);
    },
  };
}
