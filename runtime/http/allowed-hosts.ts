/**
 * Which hosts a request whose url is only known at run time may reach: a TypeScript scenario's
 * http calls, a YAML endpoint whose url comes from a variable, and a redirect's next hop. The target's host:port, and
 * the user's `allowed_hosts`: a host name allows every port of it, host:port only that port.
 */

import type { Plan } from '../../model/plan/plan.js';

/** The hosts a run may reach. */
export class AllowedHosts {
  readonly #target: string | undefined;
  readonly #allowed: ReadonlySet<string>;

  /** `targetHost`: the target's host[:port] as URL.host writes it. */
  constructor(targetHost: string | undefined, allowed: readonly string[]) {
    this.#target = targetHost;
    this.#allowed = new Set(allowed.map((h) => h.toLowerCase()));
  }

  /** A run's: its target's host and its `allowed_hosts`. */
  static of(plan: Pick<Plan, 'target' | 'allowedHosts'>): AllowedHosts {
    const target = plan.target === undefined ? undefined : new URL(plan.target).host;
    return new AllowedHosts(target, plan.allowedHosts);
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
