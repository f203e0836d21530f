/**
 * The credentials and channel options of a gRPC client: plaintext HTTP/2 (h2c) for grpc://, TLS
 * for grpcs:// with the run's `tls:` settings (CA, client certificate; a listed origin's own,
 * by its https origin) and `insecure` (no verification of the server's certificate).
 */
import { createSecureContext } from 'node:tls';
import { credentials, Client, type ChannelOptions } from '@grpc/grpc-js';
import { tlsFor, type TlsPlan } from '../../model/plan/tls-plan.js';

/** The TLS settings of a segment's gRPC clients. */
export interface GrpcTransport {
  readonly insecure: boolean;
  readonly tls: TlsPlan | undefined;
}

/** A client of `address` (host:port), plaintext or TLS. */
export function grpcClient(address: string, secure: boolean, transport: GrpcTransport): Client {
  if (!secure) return new Client(address, credentials.createInsecure());
  const options = tlsFor(transport.tls, `https://${address.replace(/:443$/, '')}`);
  const verify = transport.insecure
    ? { rejectUnauthorized: false, checkServerIdentity: () => undefined }
    : {};
  const { servername: _, pfx, ...context } = options ?? {};
  const secureContext = createSecureContext({
    ...context,
    ...(pfx === undefined ? {} : { pfx: Buffer.from(pfx) }),
  });
  const creds = credentials.createFromSecureContext(secureContext, verify);
  const channel: ChannelOptions =
    options?.servername === undefined
      ? {}
      : { 'grpc.ssl_target_name_override': options.servername };
  return new Client(address, creds, channel);
}
