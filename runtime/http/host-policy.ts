/**
 * Where requests may go besides the endpoints the user listed: the target's host (and port) and
 * `allowed_hosts` (a host name allows every port of it; host:port only that port). A TypeScript
 * scenario's calls and every redirect a virtual user follows are held to it.
 */

/** The hosts a run may reach. */
export class HostPolicy {
  readonly #target: URL | undefined;
  readonly #allowed: ReadonlySet<string>;

  constructor(target: string | undefined, allowedHosts: readonly string[]) {
    this.#target = target === undefined ? undefined : new URL(target);
    this.#allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  }

  /** The target as a URL, when the run has one. */
  get target(): URL | undefined {
    return this.#target;
  }

  /** True when `url`'s host is the target's or allowed. */
  allows(url: URL): boolean {
    return (
      url.host === this.#target?.host ||
      this.#allowed.has(url.host.toLowerCase()) ||
      this.#allowed.has(url.hostname.toLowerCase())
    );
  }
}
