/**
 * TLS settings of a run as the runtime needs them: the files' contents, read and checked at load
 * time (dsl/sources/tls-files.ts). Key material: never printed (docs/configuration.md, Secrets).
 */

/** The connect options of one origin's connections (Node's tls.connect names). */
export interface TlsOptions {
  /** PEM text of CA certificates trusted instead of Node's own (as curl's --cacert). */
  readonly ca?: string;
  /** PEM text of the client certificate and of its private key. */
  readonly cert?: string;
  readonly key?: string;
  /** PKCS#12 bytes of the client certificate and key. */
  readonly pfx?: Uint8Array;
  readonly passphrase?: string;
  readonly servername?: string;
  readonly minVersion?: 'TLSv1.2' | 'TLSv1.3';
}

/** The run's settings, and each listed origin's, which replace them whole for that origin. */
export interface TlsPlan {
  readonly run: TlsOptions;
  /** By origin as URL.origin spells it (`https://host:port`, default port left out). */
  readonly origins: Readonly<Record<string, TlsOptions>>;
}

/** The options of an origin's connections: its own when listed, else the run's. */
export function tlsFor(plan: TlsPlan | undefined, origin: string): TlsOptions | undefined {
  if (plan === undefined) return undefined;
  return Object.hasOwn(plan.origins, origin) ? plan.origins[origin] : plan.run;
}
