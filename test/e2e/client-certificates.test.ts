// `tls:` beyond HTTP requests (docs/configuration.md, "TLS and HTTP/2"): wss:// sessions (YAML
// endpoints and a scenario's ws.connect) and the OAuth2 token request, against a node:https server
// that requires a client certificate from the test's CA (openssl-pki.ts), with a WebSocket echo on
// it and a token endpoint. Each connection's certificate subject is kept, so the server itself
// says which client certificate came; the passphrase appears in no output or report.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { WebSocketServer } from 'ws';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';
import { CLIENT_PASSPHRASE, makePki, opensslSkip } from '../helpers/openssl-pki.js';
import { ALL_REPORTS, reportTexts } from '../helpers/report-files.js';

interface Json {
  readonly total: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly websocket: { readonly sessions: number; readonly msgs_received: number } | null;
  readonly checks: { readonly fails: number } | null;
}

/** An https server requiring a client certificate: a WebSocket echo and a token endpoint. */
async function startMtlsServer(t: Test, pki: string) {
  const read = (name: string) => readFileSync(join(pki, name));
  const server = createHttpsServer({
    key: read('server.key'),
    cert: read('server.pem'),
    ca: read('ca.pem'),
    requestCert: true,
    rejectUnauthorized: true,
  });
  /** The subject CN of each client certificate that opened a session or asked for a token. */
  const subjects: string[] = [];
  const subjectOf = (socket: TLSSocket) => String(socket.getPeerCertificate().subject.CN);
  server.on('request', (req, res) => {
    subjects.push(subjectOf(req.socket as TLSSocket));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: 'tok-42', token_type: 'Bearer', expires_in: 3600 }));
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    subjects.push(subjectOf(req.socket as TLSSocket));
    socket.on('message', (data, binary) => socket.send(data, { binary }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    wss.close();
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { port, origin: `https://127.0.0.1:${port}`, subjects };
}

/** Runs the CLI with `yaml` as barrage.yaml in a fresh folder; PASS holds the passphrase. */
async function run(t: Test, yaml: string, files: Record<string, string> = {}) {
  const dir = t.testdir({ 'barrage.yaml': yaml, ...files });
  const result = await runCli(['run', 'barrage.yaml', '--json-output'], {
    cwd: dir,
    env: { PASS: CLIENT_PASSPHRASE },
  });
  const outputs = result.stdout + result.stderr + reportTexts(dir);
  t.notMatch(outputs, CLIENT_PASSPHRASE, 'the passphrase is in no output or report');
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

function json(result: SpawnResult): Json {
  return JSON.parse(result.stdout) as Json;
}

const SCENARIO = `import { check, ws } from 'barrage';

export default async function (): Promise<void> {
  let echoed = '';
  const res = await ws.connect('/echo', { name: 'echo' }, (socket) => {
    socket.on('open', () => socket.send('ping'));
    socket.on('message', (text) => {
      echoed = text;
      socket.close();
    });
  });
  check(res, { echoed: (r) => r.ok && echoed === 'ping' });
}
`;

t.test(
  'tls: client certificates for wss:// and the token URL',
  { skip: opensslSkip(process.env) },
  async (t) => {
    const pki = t.testdir({});
    makePki(pki);
    const server = await startMtlsServer(t, pki);
    const wss = `wss://127.0.0.1:${server.port}`;
    const pem = `{ ca: ${pki}/ca.pem, cert: ${pki}/client.pem, key: ${pki}/client.enc.key, passphrase: '\${PASS}' }`;
    const report = ALL_REPORTS;
    const endpoint = `endpoints:\n  - { name: echo, url: ${wss}/echo, messages: [{ text: hi }] }\n`;

    t.test('a YAML wss endpoint with cert and key sends the certificate', async (t) => {
      const before = server.subjects.length;
      const result = await run(t, `requests: 4\nconcurrency: 2\ntls: ${pem}\n${report}${endpoint}`);
      t.equal(result.code, 0, result.stderr);
      t.match(json(result), { total: 4, errors: {}, websocket: { sessions: 4, msgs_received: 4 } });
      t.same(server.subjects.slice(before), ['client', 'client', 'client', 'client']);
    });

    t.test(
      'wss://host:port takes the settings of https://host:port under origins (pfx)',
      async (t) => {
        const before = server.subjects.length;
        const tls = `tls:\n  origins:\n    '${server.origin}': { ca: ${pki}/ca.pem, pfx: ${pki}/client.p12, passphrase: '\${PASS}' }\n`;
        const result = await run(t, `requests: 2\n${tls}${report}${endpoint}`);
        t.equal(result.code, 0, result.stderr);
        t.match(json(result), { total: 2, errors: {}, websocket: { sessions: 2 } });
        t.same(server.subjects.slice(before), ['client', 'client']);
      },
    );

    t.test('without a client certificate, sessions fail as tls', async (t) => {
      const before = server.subjects.length;
      const result = await run(t, `requests: 2\ntls: { ca: ${pki}/ca.pem }\n${report}${endpoint}`);
      t.same(json(result).errors, { tls: 2 }, result.stdout);
      t.same(server.subjects.slice(before), [], 'no session reached the server');
    });

    t.test("a scenario's ws.connect sends the certificate", async (t) => {
      const before = server.subjects.length;
      const yaml = `target: ${server.origin}\nscenario: echo.ts\nrequests: 2\ntls: ${pem}\n${report}`;
      const result = await run(t, yaml, { 'echo.ts': SCENARIO });
      t.equal(result.code, 0, result.stderr);
      t.match(json(result), { errors: {}, checks: { fails: 0 }, websocket: { sessions: 2 } });
      t.same(server.subjects.slice(before), ['client', 'client']);

      const bare = await run(t, yaml.replace(pem, `{ ca: ${pki}/ca.pem }`), {
        'echo.ts': SCENARIO,
      });
      t.same(json(bare).errors, { tls: 2 }, 'and fails as tls without one');
    });

    t.test("the token request takes its origin's client certificate", async (t) => {
      const authorized: string[] = [];
      const target = createHttpServer((req, res) => {
        authorized.push(req.headers.authorization ?? '');
        res.end('ok');
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      t.teardown(() => target.close());
      const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
      const auth = `auth: { type: oauth2, token_url: ${server.origin}/token, client_id: me, client_secret: s3cr3t, max_retries: 0 }\n`;
      const yaml = (tls: string) => `target: ${url}\nrequests: 3\n${auth}tls: ${tls}\n${report}`;
      const before = server.subjects.length;
      const ok = await run(t, yaml(`{ origins: { '${server.origin}': ${pem} } }`));
      t.equal(ok.code, 0, ok.stderr);
      t.same(authorized, ['Bearer tok-42', 'Bearer tok-42', 'Bearer tok-42']);
      t.same(server.subjects.slice(before), ['client'], 'one token request, with the certificate');

      const refused = await run(t, yaml(`{ ca: ${pki}/ca.pem }`));
      t.equal(refused.code, 1);
      // TLS 1.3: the server refuses the missing certificate after the client's handshake is
      // done, so undici sees the connection closed (reset) rather than a failed handshake.
      t.match(
        refused.stderr,
        `auth: no token from ${server.origin}/token after 1 attempt (max_retries: 0); last failure: `,
      );
      t.match(refused.stderr, /last failure: (connection reset|TLS handshake failed)\n/);
      t.equal(authorized.length, 3, 'nothing reached the target');
    });
  },
);
