/**
 * The `tls` key: the CA bundle, the client certificate (PEM pair or PFX) and the handshake's
 * server name and lowest version, for the whole run and, under `origins`, for one origin. The
 * files are read and checked at load time (dsl/sources/tls-files.ts), never while traffic runs.
 */
import * as z from 'zod';
import { nonEmpty } from './fields.js';

/** TLS versions `min_version` accepts (Node's names). */
export const TLS_VERSIONS = ['TLSv1.2', 'TLSv1.3'] as const;

function tlsSettings() {
  return {
    ca: nonEmpty('PEM file of CA certificates trusted instead of Node’s built-in ones').optional(),
    cert: nonEmpty('PEM file of the client certificate (with key)').optional(),
    key: nonEmpty('PEM file of the client private key (with cert)').optional(),
    pfx: nonEmpty('PKCS#12 file of the client certificate and key').optional(),
    passphrase: z
      .string({ error: 'text: the passphrase of key or pfx' })
      .optional()
      .describe('Passphrase of key or pfx; write ${NAME}: it is a secret'),
    servername: nonEmpty('server name sent in SNI and checked in the certificate').optional(),
    min_version: z
      .enum(TLS_VERSIONS, { error: `one of ${TLS_VERSIONS.join(', ')}` })
      .optional()
      .describe('Lowest TLS version offered'),
  };
}

/** One origin's settings under `tls.origins`: replace the run's for that origin. */
function originTls() {
  return z.strictObject(tlsSettings(), { error: 'a mapping of TLS settings' });
}

/** The `tls` key. */
export function tlsSchema() {
  return z.strictObject(
    {
      ...tlsSettings(),
      origins: z
        .record(z.string(), z.lazy(originTls), {
          error: 'a mapping of https origins to TLS settings',
        })
        .optional()
        .describe("Per origin ('https://host:port'), settings that replace the run's whole"),
    },
    {
      error: 'a mapping of TLS settings (ca, cert, key, pfx, passphrase, servername, min_version)',
    },
  );
}

/** The settings of the run or of one origin, as validated. */
export type TlsSettings = z.output<ReturnType<typeof originTls>>;
