/**
 * A PKI the openssl CLI generates for a test, in its folder: a CA, a server certificate for
 * 127.0.0.1 (and localhost), a client certificate (its key also encrypted, and as PKCS#12, both
 * with CLIENT_PASSPHRASE) and a key of no certificate. Without openssl the tests that need it
 * cannot run: under CI (.ci/run installs it) that is a failure, elsewhere a skip.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The passphrase of the client key and of the PKCS#12 file. */
export const CLIENT_PASSPHRASE = 'open_sesame_42';

/** True when the openssl CLI runs. */
export function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
}

/** tap's `skip` option: a reason when openssl is missing outside CI, else false. */
export function opensslSkip(env: Readonly<Record<string, string | undefined>>): string | false {
  if (env.CI !== undefined || hasOpenssl()) return false;
  return 'openssl is missing: apt-get install openssl (bash .ci/run does)';
}

function openssl(dir: string, args: readonly string[]): void {
  const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${run.stderr}`);
}

/** Writes ca.pem, server.{pem,key}, client.{pem,key}, client.enc.key, client.p12 and other.key. */
export function makePki(dir: string): void {
  const ssl = (args: string): void => openssl(dir, args.split(' '));
  const pass = `pass:${CLIENT_PASSPHRASE}`;
  ssl('req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=test-ca');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  for (const name of ['server', 'client']) {
    ssl(`req -newkey rsa:2048 -nodes -keyout ${name}.key -out ${name}.csr -subj /CN=${name}`);
    const ext = name === 'server' ? ' -extfile server.ext' : '';
    ssl(
      `x509 -req -in ${name}.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1${ext} -out ${name}.pem`,
    );
  }
  ssl(`pkcs12 -export -in client.pem -inkey client.key -out client.p12 -passout ${pass}`);
  ssl(`pkey -in client.key -aes256 -passout ${pass} -out client.enc.key`);
  ssl('genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out other.key');
}
