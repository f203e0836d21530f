/**
 * Which connections go through a proxy (docs/configuration.md, "Proxies"): https:// and wss://
 * origins through the plan's https proxy, http:// and ws:// through its http proxy, unless a
 * NO_PROXY entry matches the origin, as curl matches them:
 *
 *   entry   = "*" | host [":" port] | ip [":" port] | "[" ipv6 "]" [":" port] | ip "/" bits
 *   host    matches itself and every name below it (".example.com" and "example.com" alike)
 *   ip      matches that address only when the origin is written as an address (no DNS lookup)
 *   port    when given, only that port matches (curl ignores ports; undici and Go read them)
 */
import { BlockList, isIP } from 'node:net';
import type { ProxyPlan, ProxyServer } from '../../model/plan/proxy-plan.js';

type Bypass = (host: string, port: number) => boolean;

/** The routes of a run's proxy plan. */
export class ProxyRoutes {
  readonly #plan: ProxyPlan;
  readonly #bypass: readonly Bypass[];

  constructor(plan: ProxyPlan) {
    this.#plan = plan;
    this.#bypass = plan.noProxy.map(bypassOf);
  }

  /** The proxy of a connection to this origin (`hostname` as URL writes it), or undefined. */
  serverFor(protocol: string, hostname: string, port: number): ProxyServer | undefined {
    const secure = protocol === 'https:' || protocol === 'wss:';
    const server = secure ? this.#plan.https : this.#plan.http;
    if (server === undefined) return undefined;
    const host = unbracket(hostname.toLowerCase()).replace(/\.$/, '');
    return this.#bypass.some((bypass) => bypass(host, port)) ? undefined : server;
  }
}

/** The default port of a scheme, for an origin that names none. */
export function defaultPort(protocol: string): number {
  return protocol === 'https:' || protocol === 'wss:' ? 443 : 80;
}

function bypassOf(entry: string): Bypass {
  if (entry === '*') return () => true;
  const slash = entry.indexOf('/');
  if (slash > 0) return subnet(entry.slice(0, slash), Number(entry.slice(slash + 1)));
  const [name, port] = splitPort(entry);
  const family = isIP(name);
  if (family !== 0) return (host, p) => host === name && (port === undefined || p === port);
  const domain = name.replace(/^\.+/, '').replace(/\.$/, '');
  return (host, p) =>
    (host === domain || host.endsWith(`.${domain}`)) && (port === undefined || p === port);
}

/** An entry's host and port: host:port, [v6]:port, or a bare v6 address (no port). */
function splitPort(entry: string): [string, number | undefined] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null)
    return [bracketed[1]!, bracketed[2] === undefined ? undefined : Number(bracketed[2])];
  const colon = entry.lastIndexOf(':');
  if (colon < 0 || isIP(entry) === 6) return [entry, undefined];
  const port = entry.slice(colon + 1);
  return /^\d+$/.test(port) ? [entry.slice(0, colon), Number(port)] : [entry, undefined];
}

function subnet(address: string, bits: number): Bypass {
  const family = isIP(address);
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32))
    return () => false;
  const list = new BlockList();
  list.addSubnet(address, bits, type);
  return (host) => isIP(host) === family && list.check(host, type);
}

/** A host name without the brackets of an IPv6 literal (`[::1]` → `::1`). */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}
