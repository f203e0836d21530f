/**
 * What undici's connector is built with for one origin: certificate verification (`insecure`),
 * the origin's `tls:` settings (dsl/plan/tls-plan.ts) and the ALPN offer (`http2`). undici reads
 * its ALPN list from the connector, not from the Client, so `allowH2` goes here as well: left to
 * its default, the connector offers h2 and a server that prefers it gets HTTP/2.
 */
import type buildConnector from 'undici/lib/core/connect.js';
import { tlsFor, type TlsPlan } from '../../dsl/plan/tls-plan.js';

/** The run's TLS and HTTP version settings, as the virtual users' clients need them. */
export interface TransportOptions {
  readonly insecure: boolean;
  readonly tls: TlsPlan | undefined;
  readonly http2: boolean;
}

/** The connector options of `origin`'s connections, with the connect timeout `timeout` (ms). */
export function connectOptions(
  transport: TransportOptions,
  origin: string,
  timeout: number,
): NonNullable<Parameters<typeof buildConnector>[0]> {
  // Only TLS reads them: on cleartext, undici's connector would take `servername` as the host.
  const tls = origin.startsWith('https:') ? tlsFor(transport.tls, origin) : undefined;
  return {
    timeout,
    rejectUnauthorized: !transport.insecure,
    allowH2: transport.http2,
    ...(tls === undefined
      ? {}
      : {
          ...tls,
          ...(tls.pfx === undefined ? {} : { pfx: Buffer.from(tls.pfx) }),
        }),
  };
}
