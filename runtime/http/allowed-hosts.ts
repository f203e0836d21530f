/**
 * Which hosts a request whose url is only known at run time may reach: a TypeScript scenario's
 * http calls, and a YAML endpoint whose url comes from a variable. The target's host:port, and
 * the user's `allowed_hosts`: a host name allows every port of it, host:port only that port.
 */

/** The hosts a run may reach. */
export class AllowedHosts {
  readonly #target: string | undefined;
  readonly #allowed: ReadonlySet<string>;

  /** `targetHost`: the target's host[:port] as URL.host writes it. */
  constructor(targetHost: string | undefined, allowed: readonly string[]) {
    this.#target = targetHost;
    this.#allowed = new Set(allowed.map((h) => h.toLowerCase()));
  }

  /** True when the url's host is the target's or allowed. */
  allows(url: URL): boolean {
    return (
      url.host === this.#target ||
      this.#allowed.has(url.host.toLowerCase()) ||
      this.#allowed.has(url.hostname.toLowerCase())
    );
  }
}
