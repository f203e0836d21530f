/**
 * Where target connections go through a forward proxy (docs/configuration.md, "Proxies"): the
 * `proxy` key, else the HTTPS_PROXY/HTTP_PROXY/NO_PROXY variables, resolved before any traffic.
 */

/** One proxy server: where to open tunnels, and the credentials its URL held. */
export interface ProxyServer {
  /** http://host:port, without credentials (it may be shown). */
  readonly origin: string;
  /** The Proxy-Authorization value (Basic) from the URL's user info; a secret. */
  readonly authorization: string | undefined;
}

/** The proxies of a run, by the target's scheme, and the hosts that bypass them. */
export interface ProxyPlan {
  /** For http:// (and ws://) origins. */
  readonly http: ProxyServer | undefined;
  /** For https:// (and wss://) origins. */
  readonly https: ProxyServer | undefined;
  /** NO_PROXY entries, lower case, as written: `*`, host, .domain, host:port, IP, IP/bits. */
  readonly noProxy: readonly string[];
}
