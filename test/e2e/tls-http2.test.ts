// TLS settings and HTTP/2 against Debian's nginx (test/helpers/nginx-tls.ts): h2 negotiated by
// ALPN when asked, HTTP/1.1 otherwise or when the server offers no h2; a CA bundle trusted without
// `insecure`; client certificates from PEM and PFX; bad TLS files refused before any traffic.
import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nginxSkip, startNginx } from '../helpers/nginx-tls.js';
import { CLIENT_PASSPHRASE } from '../helpers/openssl-pki.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

interface Json {
  readonly total: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly endpoints: readonly { readonly protocols: readonly string[] }[];
}

const REQUESTS = 6;

t.test('TLS and HTTP/2 against nginx', { skip: nginxSkip(process.env) }, async (t) => {
  const pki = t.testdir({});
  const nginx = await startNginx(pki);
  t.teardown(() => nginx.stop());

  /** Runs REQUESTS requests of 2 users with this `tls`/`http2` YAML; the CLI's result. */
  async function run(t: Test, port: number, yaml: string, env: Record<string, string> = {}) {
    const dir = t.testdir({});
    writeFileSync(
      join(dir, 'barrage.yaml'),
      `target: https://127.0.0.1:${port}/\nrequests: ${REQUESTS}\nconcurrency: 2\n${yaml.replaceAll('PKI', pki)}\n`,
    );
    const before = nginx.log().length;
    const result = await runCli(['run', 'barrage.yaml', '--json-output'], { cwd: dir, env });
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
    return { result, lines: nginx.log().slice(before) };
  }

  function json(result: SpawnResult): Json {
    return JSON.parse(result.stdout) as Json;
  }

  const ca = 'tls: { ca: PKI/ca.pem }';

  t.test('http2: true negotiates h2; nginx logs HTTP/2.0', async (t) => {
    const { result, lines } = await run(t, nginx.ports.h2, `${ca}\nhttp2: true`);
    t.equal(result.code, 0, result.stderr);
    t.same(json(result).endpoints[0]!.protocols, ['h2']);
    t.equal(json(result).status_codes['200'], REQUESTS);
    t.same(lines, Array(REQUESTS).fill(`${nginx.ports.h2} HTTP/2.0 "-"`));
  });

  t.test('by default, HTTP/1.1 with a server that offers h2', async (t) => {
    const { result, lines } = await run(t, nginx.ports.h2, ca);
    t.equal(result.code, 0, result.stderr);
    t.same(json(result).endpoints[0]!.protocols, ['http/1.1']);
    t.same(lines, Array(REQUESTS).fill(`${nginx.ports.h2} HTTP/1.1 "-"`));
  });

  t.test('http2: true falls back to HTTP/1.1 when the server offers no h2', async (t) => {
    const { result, lines } = await run(t, nginx.ports.h1, `${ca}\nhttp2: true`);
    t.equal(result.code, 0, result.stderr);
    t.same(json(result).endpoints[0]!.protocols, ['http/1.1']);
    t.same(lines, Array(REQUESTS).fill(`${nginx.ports.h1} HTTP/1.1 "-"`));
  });

  t.test('without the CA, the certificate is refused: a tls error, no request', async (t) => {
    const { result, lines } = await run(t, nginx.ports.h2, 'http2: true');
    t.equal(json(result).errors.tls, REQUESTS, result.stdout);
    t.same(lines, []);
  });

  const subject = `"CN=client"`;
  t.test('mTLS with cert and an encrypted key from PEM files', async (t) => {
    const tls = `tls: { ca: PKI/ca.pem, cert: PKI/client.pem, key: PKI/client.enc.key, passphrase: '\${PASS}' }`;
    const { result, lines } = await run(t, nginx.ports.mtls, `${tls}\nhttp2: true`, {
      PASS: CLIENT_PASSPHRASE,
    });
    t.equal(result.code, 0, result.stderr);
    t.equal(json(result).status_codes['200'], REQUESTS);
    t.same(json(result).endpoints[0]!.protocols, ['h2']);
    t.same(lines, Array(REQUESTS).fill(`${nginx.ports.mtls} HTTP/2.0 ${subject}`));
  });

  t.test('mTLS with a PFX file', async (t) => {
    const tls = `tls: { ca: PKI/ca.pem, pfx: PKI/client.p12, passphrase: '\${PASS}' }`;
    const { result, lines } = await run(t, nginx.ports.mtls, tls, { PASS: CLIENT_PASSPHRASE });
    t.equal(result.code, 0, result.stderr);
    t.equal(json(result).status_codes['200'], REQUESTS);
    t.same(lines, Array(REQUESTS).fill(`${nginx.ports.mtls} HTTP/1.1 ${subject}`));
  });

  t.test('mTLS without a client certificate: nginx refuses each request', async (t) => {
    const { result, lines } = await run(t, nginx.ports.mtls, ca);
    t.equal(json(result).status_codes['400'], REQUESTS, 'No required SSL certificate was sent');
    t.equal(lines.length, REQUESTS);
  });

  t.test('per origin settings replace the run', async (t) => {
    const origin = `https://127.0.0.1:${nginx.ports.mtls}`;
    const tls = `tls: { origins: { '${origin}': { ca: PKI/ca.pem, pfx: PKI/client.p12, passphrase: '\${PASS}' } } }`;
    const { result } = await run(t, nginx.ports.mtls, tls, { PASS: CLIENT_PASSPHRASE });
    t.equal(json(result).status_codes['200'], REQUESTS, result.stderr);
  });

  const refusals: readonly (readonly [string, string, RegExp])[] = [
    ['a missing CA file', 'tls: { ca: PKI/nowhere.pem }', /tls\.ca[\s\S]*nowhere\.pem/],
    ['a CA file that is no PEM', 'tls: { ca: PKI/server.ext }', /tls\.ca[\s\S]*server\.ext/],
    [
      'a wrong passphrase of the key',
      'tls: { cert: PKI/client.pem, key: PKI/client.enc.key, passphrase: "${PASS}" }',
      /tls\.key[\s\S]*client\.enc\.key[\s\S]*passphrase does not open it/,
    ],
    [
      'a key not matching its certificate',
      'tls: { cert: PKI/client.pem, key: PKI/other.key }',
      /tls\.key[\s\S]*other\.key[\s\S]*does not match the certificate/,
    ],
    [
      'a wrong passphrase of the PFX',
      'tls: { pfx: PKI/client.p12, passphrase: "${PASS}" }',
      /tls\.pfx[\s\S]*client\.p12[\s\S]*passphrase does not open it/,
    ],
  ];
  for (const [what, yaml, message] of refusals)
    t.test(`validation refuses ${what}, before any traffic`, async (t) => {
      const { result, lines } = await run(t, nginx.ports.h2, yaml, { PASS: 'not-the-passphrase' });
      t.equal(result.code, 1);
      t.match(result.stderr, message);
      t.notMatch(result.stderr, /not-the-passphrase|BEGIN/, 'no secret, no key material');
      t.same(lines, [], 'nothing sent');
    });
});
