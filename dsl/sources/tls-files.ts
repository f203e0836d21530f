/**
 * The files of `tls:` (CA bundle, client certificate and key, PFX), read and checked at load time
 * (relative to the configuration file), so that a missing file, a bad PEM, a wrong passphrase or a
 * key that does not match its certificate stops the run before anything is sent. The checks are
 * Node's own (node:crypto, tls.createSecureContext); their messages name the file and the key,
 * never the key material or the passphrase.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { ConfigIssue } from '../issues.js';
import type { Provenance } from '../layers.js';
import type { TlsOptions, TlsPlan } from '../../model/plan/tls-plan.js';
import { err, ok, type Result } from '../result.js';
import type { Config } from '../schema/config-schema.js';
import type { TlsSettings } from '../schema/tls-schema.js';
import { readBoundedBytes } from './bounded-file.js';

/** Largest TLS file read (a CA bundle of every public root is about 250 kB). */
const MAX_TLS_FILE_BYTES = 1024 * 1024;

type Path = readonly (string | number)[];

/** Reads and checks the files of `tls:`; undefined when the configuration has none. */
export function readTlsFiles(
  config: Config,
  baseDir: string,
  provenance: Provenance,
): Result<TlsPlan | undefined, ConfigIssue[]> {
  const tls = config.tls;
  if (tls === undefined) return ok(undefined);
  const issues: ConfigIssue[] = [];
  const reader = new TlsReader(baseDir, provenance, issues);
  const run = reader.options(tls, ['tls']);
  const origins: Record<string, TlsOptions> = {};
  for (const [name, settings] of Object.entries(tls.origins ?? {})) {
    const path = ['tls', 'origins', name];
    const origin = httpsOrigin(name);
    if (origin === undefined)
      issues.push({
        code: 'invalid_value',
        source: provenance.sourceOf(path, true),
        path,
        expected: 'an https origin such as https://api.example.com:8443 (scheme, host, port)',
        actual: JSON.stringify(name),
      });
    else origins[origin] = reader.options(settings, path);
  }
  return issues.length > 0 ? err(issues) : ok({ run, origins });
}

function httpsOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    const bare = url.pathname === '/' && url.search === '' && url.username === '';
    return url.protocol === 'https:' && bare ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

class TlsReader {
  constructor(
    private readonly baseDir: string,
    private readonly provenance: Provenance,
    private readonly issues: ConfigIssue[],
  ) {}

  /** One mapping's options; its problems join `issues`. */
  options(settings: TlsSettings, at: Path): TlsOptions {
    const { passphrase } = settings;
    const ca = this.#text(settings.ca, [...at, 'ca'], 'CA bundle');
    if (ca !== undefined)
      this.#check([...at, 'ca'], settings.ca!, 'a PEM file of CA certificates', () => {
        new X509Certificate(ca);
      });
    if ((settings.cert === undefined) !== (settings.key === undefined))
      this.#fail([...at, settings.cert === undefined ? 'key' : 'cert'], 'cert and key together', {
        actual: `${settings.cert === undefined ? 'key' : 'cert'} alone`,
      });
    if (settings.pfx !== undefined && settings.cert !== undefined)
      this.#fail([...at, 'pfx'], 'either pfx or cert and key, not both', {
        actual: 'pfx with cert',
      });
    const cert = this.#text(settings.cert, [...at, 'cert'], 'certificate file');
    const key = this.#text(settings.key, [...at, 'key'], 'key file');
    const pfx = this.#bytes(settings.pfx, [...at, 'pfx'], 'PFX file');
    const certOk =
      cert !== undefined &&
      this.#check([...at, 'cert'], settings.cert!, 'a PEM certificate', () => {
        new X509Certificate(cert);
      });
    const keyOk =
      key !== undefined &&
      this.#check([...at, 'key'], settings.key!, keyExpectation(passphrase), () => {
        createPrivateKey({ key, ...(passphrase === undefined ? {} : { passphrase }) });
      });
    if (certOk && keyOk)
      this.#check([...at, 'key'], settings.key!, 'the private key of cert', () => {
        createSecureContext({ cert, key, ...(passphrase === undefined ? {} : { passphrase }) });
      });
    if (pfx !== undefined)
      this.#check([...at, 'pfx'], settings.pfx!, pfxExpectation(passphrase), () => {
        createSecureContext({ pfx: Buffer.from(pfx), passphrase: passphrase ?? '' });
      });
    return {
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
      ...(pfx === undefined ? {} : { pfx }),
      ...(passphrase === undefined ? {} : { passphrase }),
      ...(settings.servername === undefined ? {} : { servername: settings.servername }),
      ...(settings.min_version === undefined ? {} : { minVersion: settings.min_version }),
    };
  }

  #bytes(file: string | undefined, path: Path, what: string): Uint8Array | undefined {
    if (file === undefined) return undefined;
    const read = readBoundedBytes(resolve(this.baseDir, file), what, MAX_TLS_FILE_BYTES);
    if (read.ok) return new Uint8Array(read.value);
    for (const issue of read.error)
      this.#fail(
        path,
        issue.expected,
        { actual: `${JSON.stringify(file)}: ${issue.actual}` },
        issue.code,
      );
    return undefined;
  }

  #text(file: string | undefined, path: Path, what: string): string | undefined {
    const bytes = this.#bytes(file, path, what);
    return bytes === undefined ? undefined : Buffer.from(bytes).toString('latin1');
  }

  /** Runs a check of Node's; false (and an issue naming the file) when it throws. */
  #check(path: Path, file: string, expected: string, check: () => void): boolean {
    try {
      check();
      return true;
    } catch (error) {
      this.#fail(path, expected, { actual: `${JSON.stringify(file)}: ${reasonOf(error)}` });
      return false;
    }
  }

  #fail(
    path: Path,
    expected: string,
    { actual }: { actual: string },
    code: ConfigIssue['code'] = 'invalid_value',
  ): void {
    this.issues.push({ code, source: this.provenance.sourceOf(path), path, expected, actual });
  }
}

function keyExpectation(passphrase: string | undefined): string {
  return passphrase === undefined
    ? 'a PEM private key (an encrypted one needs passphrase)'
    : 'a PEM private key that passphrase decrypts';
}

function pfxExpectation(passphrase: string | undefined): string {
  return passphrase === undefined
    ? 'a PKCS#12 file without a password (else set passphrase)'
    : 'a PKCS#12 file that passphrase opens';
}

/**
 * What OpenSSL said, in words: its reason text (never the material). The usual ones are named
 * for a user who does not read OpenSSL.
 */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = /(?:^|::)([^:]+)$/.exec(message)?.[1] ?? message;
  if (/bad decrypt|mac verify failure|interrupted or cancelled/.test(reason))
    return `the passphrase does not open it (${reason})`;
  if (reason === 'key values mismatch') return 'the key does not match the certificate';
  if (/no start line|unsupported|not enough data/.test(reason))
    return `not in the expected format (${reason})`;
  return reason;
}
