/**
 * Virtual users as real HTTP clients (issue 22), YAML only, spawned as a user runs barrage: a
 * cookie jar per user, redirects followed (and refused past the limit or off the allowed hosts),
 * compressed bodies decoded for extractors and measured on the wire, think time ended by a stop.
 */
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { runCli } from '../helpers/run-cli.js';
import type { JsonResult } from '../../cli/render/json-report.js';

interface Seen {
  readonly url: string;
  /** `${method} ${path} cookie=${Cookie header}` of each request. */
  readonly requests: string[];
  /** Accept-Encoding of each request. */
  readonly encodings: string[];
  /** Bodies of POST /echo, with their method. */
  readonly echoed: string[];
  /** Ids asked for at /item/:id. */
  readonly items: string[];
}

const LIST = JSON.stringify({ items: [{ id: 1070, name: 'x'.repeat(2000) }] });
const ENCODED: Readonly<Record<string, Buffer>> = {
  gzip: gzipSync(LIST),
  br: brotliCompressSync(LIST),
  zstd: zstdCompressSync(LIST),
};

async function target(t: Test): Promise<Seen> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.requests.push(`${req.method} ${url.pathname} cookie=${req.headers.cookie ?? ''}`);
      seen.encodings.push(req.headers['accept-encoding'] ?? '');
      const path = url.pathname;
      if (path === '/set') {
        res.setHeader('set-cookie', [
          'sid=abc; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/; HttpOnly',
          'scoped=1; Path=/app',
          'gone=1; Max-Age=0',
          'bad cookie line without equals',
        ]);
        res.end('ok');
      } else if (path === '/login') {
        res.writeHead(302, { location: '/dashboard', 'set-cookie': 'session=u1; Path=/' });
        res.end('moved');
      } else if (path === '/dashboard') {
        if ((req.headers.cookie ?? '').includes('session=u1')) res.end('Hello');
        else res.writeHead(302, { location: '/login-page' }).end();
      } else if (path === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (path === '/away') {
        const port = (server.address() as { port: number }).port;
        res.writeHead(302, { location: `http://localhost:${port}/elsewhere` }).end();
      } else if (path === '/temp') res.writeHead(307, { location: '/echo' }).end();
      else if (path === '/echo') {
        seen.echoed.push(`${req.method} ${body}`);
        res.end('echo');
      } else if (path.startsWith('/list/')) {
        const coding = path.slice('/list/'.length);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(ENCODED[coding]);
      } else if (path === '/bomb') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(gzipSync(Buffer.alloc(20 * 1024 * 1024)));
      } else if (path === '/corrupt') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end('this is not gzip');
      } else if (path.startsWith('/item/')) {
        seen.items.push(path.slice('/item/'.length));
        res.end('item');
      } else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const seen: Seen = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: [],
    encodings: [],
    echoed: [],
    items: [],
  };
  return seen;
}

async function run(t: Test, config: string, code = 0): Promise<JsonResult> {
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, code, result.stderr);
  return JSON.parse(result.stdout) as JsonResult;
}

/** A flow of `steps` (endpoint names) run `times` times by one worker. */
function flow(url: string, endpoints: string, steps: string[], times = 1, extra = ''): string {
  return `target: ${url}\nconcurrency: 1\nrequests: ${times}\n${extra}endpoints:\n${endpoints}flows:\n  - { name: f, steps: [${steps.join(', ')}] }\n`;
}

t.test('each virtual user keeps the cookies it is sent, by path and expiry', async (t) => {
  const seen = await target(t);
  const endpoints = `  - { name: set, url: /set }\n  - { name: root, url: /check }\n  - { name: app, url: /app/page, headers: { Cookie: "sid=mine; extra=1" } }\n`;
  const result = await run(t, flow(seen.url, endpoints, ['set', 'root', 'app']));
  t.equal(result.failures, 0);
  t.strictSame(seen.requests, [
    'GET /set cookie=',
    'GET /check cookie=sid=abc',
    'GET /app/page cookie=sid=mine; extra=1; scoped=1',
  ]);
});

t.test('cookies: false sends none', async (t) => {
  const seen = await target(t);
  const endpoints = `  - { name: set, url: /set }\n  - { name: root, url: /check }\n`;
  await run(t, flow(seen.url, endpoints, ['set', 'root'], 1, 'cookies: false\n'));
  t.strictSame(seen.requests, ['GET /set cookie=', 'GET /check cookie=']);
});

t.test('a form login: 302 to the dashboard, followed with its session cookie', async (t) => {
  const seen = await target(t);
  const endpoints = `  - { name: login, method: POST, url: /login, body: "u=ada" }\n`;
  const result = await run(t, flow(seen.url, endpoints, ['login'], 3));
  t.equal(result.total, 6, 'each hop is a request, as the server saw');
  t.same(result.status_codes, { '200': 3, '302': 3 });
  t.equal(result.failures, 0);
  t.equal(result.redirects, 3, 'each hop counted');
  t.same(result.total_failed, { rate: 0, count: 0, total: 3 }, 'three logins');
  t.strictSame(seen.requests.slice(0, 2), [
    'POST /login cookie=',
    'GET /dashboard cookie=session=u1',
  ]);
});

t.test('max_redirects: 0 leaves the 302 as the answer', async (t) => {
  const seen = await target(t);
  const endpoints = `  - { name: login, method: POST, url: /login, body: "u=ada", max_redirects: 0 }\n`;
  const result = await run(t, flow(seen.url, endpoints, ['login']));
  t.equal(result.failures, 0);
  t.equal(result.redirects, 0);
  t.strictSame(seen.requests, ['POST /login cookie=']);
});

t.test('a redirect loop ends at the limit as too_many_redirects', async (t) => {
  const seen = await target(t);
  const result = await run(
    t,
    `target: ${seen.url}\nconcurrency: 1\nrequests: 1\nmax_redirects: 4\nendpoints:\n  - { url: /loop }\n`,
  );
  t.strictSame(result.errors, { too_many_redirects: 1 });
  t.equal(seen.requests.length, 5, 'the request and 4 hops');
});

t.test('a redirect to a host that is not allowed is not followed', async (t) => {
  const seen = await target(t);
  const result = await run(
    t,
    `target: ${seen.url}\nconcurrency: 1\nrequests: 1\nendpoints:\n  - { url: /away }\n`,
    1, // nothing succeeded: the run proved nothing
  );
  t.strictSame(result.errors, { url_not_allowed: 1 });
  t.strictSame(seen.requests, ['GET /away cookie='], 'nothing sent to localhost');
});

t.test('307 keeps the method and the body', async (t) => {
  const seen = await target(t);
  const endpoints = `  - { name: temp, method: POST, url: /temp, body: "payload" }\n`;
  await run(t, flow(seen.url, endpoints, ['temp']));
  t.strictSame(seen.echoed, ['POST payload']);
});

for (const coding of ['gzip', 'br', 'zstd']) {
  t.test(`a ${coding} JSON list is decoded for extractors; the wire bytes stay`, async (t) => {
    const seen = await target(t);
    const endpoints = `  - { name: list, url: /list/${coding}, extract: { id: "$.items[0].id" } }\n  - { name: item, url: "/item/{{id}}" }\n`;
    const result = await run(t, flow(seen.url, endpoints, ['list', 'item']));
    t.equal(result.failures, 0);
    t.strictSame(seen.items, ['1070']);
    t.equal(seen.encodings[0], 'gzip, deflate, br', 'Accept-Encoding sent by default');
    t.equal(result.bytes_decoded, Buffer.byteLength(LIST));
    t.ok(result.bytes_received < result.bytes_decoded, 'bytes received are the compressed ones');
  });
}

t.test('a decompression bomb stops at the cap; a corrupt body fails to decode', async (t) => {
  const seen = await target(t);
  // Extractors read the bodies: only a body something reads is decoded (issue 47).
  const endpoints = `  - { name: bomb, url: /bomb, extract: { a: "$.a" } }\n  - { name: corrupt, url: /corrupt, extract: { b: "$.b" } }\n`;
  const result = await run(t, flow(seen.url, endpoints, ['bomb', 'corrupt']), 1);
  t.strictSame(result.errors, { body_too_large: 1, decode_error: 1 });
});

t.test('a header of the endpoint replaces the default Accept-Encoding', async (t) => {
  const seen = await target(t);
  await run(
    t,
    `target: ${seen.url}\nconcurrency: 1\nrequests: 1\nheaders: { Accept-Encoding: identity }\n`,
  );
  t.strictSame(seen.encodings, ['identity']);
});

t.test('think time: a stop ends the pause at once, and the run is not cut', async (t) => {
  const seen = await target(t);
  const result = await run(
    t,
    `target: ${seen.url}\nconcurrency: 2\nduration: 1s\nendpoints:\n  - { url: /check, think: 1h-2h }\n`,
  );
  t.equal(result.total, 2, 'one request per worker, then the pause');
  t.equal(result.interrupted, false);
  t.strictSame(result.errors, {});
});

t.test('bad think and max_redirects values are refused before any traffic', async (t) => {
  const seen = await target(t);
  const dir = t.testdir({
    'load.yaml': `target: ${seen.url}\nendpoints:\n  - { url: /a, think: 3s-1s }\n  - { url: /b, max_redirects: -1 }\nflows:\n  - { name: f, steps: [GET /a], think: soon }\n`,
  });
  const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 1);
  t.match(result.stderr, /load\.yaml:3.*think/);
  t.match(result.stderr, /load\.yaml:4.*max_redirects/);
  t.match(result.stderr, /load\.yaml:6.*think/);
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  t.strictSame(seen.requests, []);
});

t.test('a TypeScript scenario: the same jar and redirects, with no cookie code', async (t) => {
  const seen = await target(t);
  const dir = t.testdir({
    'session.ts': `import { check, http } from 'barrage';
export default async function () {
  const r = await http.post('/login', 'u=ada');
  check(r, { 'the dashboard answered': (r) => r.url.endsWith('/dashboard') && r.body === 'Hello' });
  const stay = await http.post('/login', 'u=ada', { redirects: 0 });
  check(stay, { 'redirects: 0 returns the 302': (r) => r.status === 302 });
  const jar = http.cookieJar();
  check(jar, { 'the session cookie is in the jar': (j) => j.cookiesForURL('/x').session === 'u1' });
  jar.set('/', 'theme', 'dark');
  await http.get('/check');
  jar.clear();
  await http.get('/check');
}
`,
  });
  const result = await runCli(
    [
      'run',
      '--scenario',
      'session.ts',
      '--target',
      seen.url,
      '--requests',
      '1',
      '--concurrency',
      '1',
      '--json-output',
    ],
    { cwd: dir },
  );
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as JsonResult & {
    checks: { fails: number; passes: number };
  };
  t.strictSame(json.checks.fails, 0, result.stdout);
  t.equal(json.checks.passes, 3);
  t.equal(json.redirects, 1);
  t.strictSame(seen.requests.slice(-2), [
    'GET /check cookie=session=u1; theme=dark',
    'GET /check cookie=',
  ]);
});
