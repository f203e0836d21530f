// The session features over HTTP/2 as over HTTP/1.1 (an h2 response's headers come as an object,
// runtime/http/exchange.ts rawHeadersOf): against a node:http2 server over TLS, a YAML flow keeps
// a cookie, follows a redirect, decodes a gzip body and extracts from it, extracts and checks a
// header, and the HTTP debug log shows the response headers; a TypeScript scenario reads them.
import t, { type Test } from 'tap';
import { createSecureServer, type ServerHttp2Stream } from 'node:http2';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { makePki, opensslSkip } from '../helpers/openssl-pki.js';
import { runCli } from '../helpers/run-cli.js';

interface Json {
  readonly failures: number;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly errors: Readonly<Record<string, number>>;
  readonly endpoints: readonly { readonly name: string; readonly protocols: readonly string[] }[];
  readonly checks?: { readonly passes: number; readonly fails: number };
}

/** An h2 server over TLS answering the flow's paths; counts what each path saw. */
async function h2Target(t: Test, pki: string) {
  const seen = new Map<string, number>();
  const server = createSecureServer({
    key: readFileSync(join(pki, 'server.key')),
    cert: readFileSync(join(pki, 'server.pem')),
  });
  const answer = (stream: ServerHttp2Stream, status: number, body: string | Buffer, more = {}) => {
    stream.respond({ ':status': status, ...more });
    stream.end(body);
  };
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path']);
    const key = `${path} ${headers.cookie?.includes('sid=s1') === true ? 'cookie' : ''}`.trim();
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (path === '/login')
      return answer(stream, 200, '{"token":"t1"}', {
        'set-cookie': ['sid=s1; Path=/; HttpOnly', 'theme=dark; Path=/'],
        'x-request-id': 'r-1',
      });
    if (path === '/me') return answer(stream, headers.cookie?.includes('sid=s1') ? 200 : 401, 'me');
    if (path === '/go') return answer(stream, 302, '', { location: '/final' });
    if (path === '/final') return answer(stream, 200, 'final');
    if (path === '/gz')
      return answer(stream, 200, gzipSync('{"id":42}'), {
        'content-encoding': 'gzip',
        'content-type': 'application/json',
      });
    if (path === '/item/42') return answer(stream, headers['x-echo'] === 'r-1' ? 200 : 400, 'ok');
    return answer(stream, 404, 'no');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const FLOW = `
http2: true
requests: 3
concurrency: 1
endpoints:
  - name: login
    url: /login
    extract: { request_id: { header: x-request-id } }
    checks: [{ name: request id header, header: x-request-id, equals: r-1 }]
  - { name: me, url: /me }
  - { name: go, url: /go }
  - { name: gz, url: /gz, extract: { id: $.id } }
  - { name: item, url: '/item/{{id}}', headers: { X-Echo: '{{request_id}}' } }
flows:
  - { name: visit, steps: [login, me, go, gz, item] }
`;

t.test(
  'cookies, a redirect, a gzip body, header extractors and checks over h2',
  { skip: opensslSkip(process.env) },
  async (t) => {
    const pki = mkdtempSync(join(tmpdir(), 'barrage-h2-'));
    t.teardown(() => rmSync(pki, { recursive: true, force: true }));
    makePki(pki);
    const target = await h2Target(t, pki);
    const dir = t.testdir({
      'load.yaml': `target: ${target.url}\ntls: { ca: ${join(pki, 'ca.pem')} }\n${FLOW}`,
    });
    const result = await runCli(
      [
        'run',
        'load.yaml',
        '--json-output',
        '--http-debug=all',
        '--http-debug-file',
        'debug.ndjson',
      ],
      { cwd: dir },
    );
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as Json;
    t.equal(json.failures, 0, JSON.stringify(json.errors));
    t.match(json.checks, {
      passes: 3,
      fails: 0,
      by_name: { 'request id header': { passes: 3, fails: 0 } },
    });
    t.ok(
      json.endpoints.every((e) => e.protocols.join() === 'h2'),
      'every endpoint spoke h2',
    );
    t.equal(target.seen.get('/me cookie'), 3, 'each /me carried the cookie the login set');
    t.equal(target.seen.get('/final cookie'), 3, 'each redirect was followed');
    t.equal(target.seen.get('/item/42 cookie'), 3, 'the id came out of the gzip body');
    const lines = readFileSync(join(dir, 'debug.ndjson'), 'utf8').trim().split('\n');
    const login = lines
      .map(
        (line) =>
          JSON.parse(line) as { endpoint: string; response: { headers: Record<string, string> } },
      )
      .find((r) => r.endpoint === 'login');
    t.equal(login?.response.headers['x-request-id'], 'r-1', 'the debug log shows the headers');
  },
);

const SCENARIO = `import { check, http } from 'barrage';
export default async function (): Promise<void> {
  const login = await http.get('/login');
  check(login, {
    'a header is read': (r) => r.headers['x-request-id'] === 'r-1',
    'repeated set-cookie joined': (r) => (r.headers['set-cookie'] ?? '').includes('theme=dark'),
  });
  const me = await http.get('/me');
  check(me, { 'the cookie jar kept the session': (r) => r.status === 200 });
}
`;

t.test(
  "a TypeScript scenario reads an h2 response's headers",
  { skip: opensslSkip(process.env) },
  async (t) => {
    const pki = mkdtempSync(join(tmpdir(), 'barrage-h2-'));
    t.teardown(() => rmSync(pki, { recursive: true, force: true }));
    makePki(pki);
    const target = await h2Target(t, pki);
    const dir = t.testdir({
      'load.ts': SCENARIO,
      'run.yaml': `scenario: load.ts\ntarget: ${target.url}\nhttp2: true\ntls: { ca: ${join(pki, 'ca.pem')} }\n`,
    });
    const result = await runCli(['run', 'run.yaml', '--json-output', '-n', '2', '-c', '1'], {
      cwd: dir,
    });
    t.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as Json;
    t.match(json.checks, {
      passes: 6,
      fails: 0,
      by_name: {
        'a header is read': { passes: 2, fails: 0 },
        'repeated set-cookie joined': { passes: 2, fails: 0 },
        'the cookie jar kept the session': { passes: 2, fails: 0 },
      },
    });
    t.equal(json.failures, 0);
  },
);
