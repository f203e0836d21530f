/**
 * What connections are opened with for one origin: certificate verification (`insecure`), the
 * origin's `tls:` settings (model/plan/tls-plan.ts) and, for undici's connector, the ALPN offer
 * (`http2`). undici reads its ALPN list from the connector, not from the Client, so `allowH2` goes
 * here as well: left to its default, the connector offers h2 and a server that prefers it gets
 * HTTP/2. Target requests, token requests (runtime/auth/token-pool.ts) and WebSocket sessions
 * (runtime/ws/ws-transport.ts) all read an origin's TLS settings here.
 */
import type buildConnector from 'undici/lib/core/connect.js';
import type { Plan } from '../../model/plan/plan.js';
import { tlsFor, type TlsPlan } from '../../model/plan/tls-plan.js';

/**
 * The run's settings every connection it opens follows (target requests, WebSocket sessions, the
 * token request): its timeout bounds a proxy's CONNECT, its tls: and insecure the handshake.
 */
export type ConnectionSettings = Pick<Plan, 'timeoutMs' | 'insecure' | 'tls' | 'proxy'>;

/** The run's TLS and HTTP version settings, as the virtual users' clients need them. */
export interface TransportOptions {
  readonly insecure: boolean;
  readonly tls: TlsPlan | undefined;
  readonly http2: boolean;
}

/** The node:tls options of an origin's connections (tls.connect's names; pfx as a Buffer). */
export interface TlsConnectOptions {
  readonly rejectUnauthorized: boolean;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly pfx?: Buffer;
  readonly passphrase?: string;
  readonly servername?: string;
  readonly minVersion?: 'TLSv1.2' | 'TLSv1.3';
}

/**
 * The TLS options of `origin`'s connections (`https://host[:port]`): its `tls:` settings, with the
 * certificate check unless `insecure`. A cleartext origin gets none of the settings.
 */
export function tlsConnectOptions(
  transport: Pick<TransportOptions, 'insecure' | 'tls'>,
  origin: string,
): TlsConnectOptions {
  // Only TLS reads them: on cleartext, undici's connector would take `servername` as the host.
  const tls = origin.startsWith('https:') ? tlsFor(transport.tls, origin) : undefined;
  const rejectUnauthorized = !transport.insecure;
  if (tls === undefined) return { rejectUnauthorized };
  const { pfx, ...rest } = tls;
  return { rejectUnauthorized, ...rest, ...(pfx === undefined ? {} : { pfx: Buffer.from(pfx) }) };
}

/** The connector options of `origin`'s connections, with the connect timeout `timeout` (ms). */
export function connectOptions(
  transport: TransportOptions,
  origin: string,
  timeout: number,
): NonNullable<Parameters<typeof buildConnector>[0]> {
  return { timeout, allowH2: transport.http2, ...tlsConnectOptions(transport, origin) };
}
