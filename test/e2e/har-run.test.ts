/**
 * `run --har` as users run it (the built binary) against a real server that records what it
 * receives: the recorded requests arrive (method, path and query, headers, body), rebased onto
 * --target, without secrets, static assets or third-party hosts.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { runCli } from '../helpers/run-cli.js';

const RECORDING = fileURLToPath(new URL('../fixtures/har/chromium-shop.har', import.meta.url));

/** One request as the server saw it. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A server on 127.0.0.1:0 that answers 200 {} and remembers every request. */
async function startRecorder(t: Test): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, seen };
}

/** The recording's API calls, in recorded order (static assets and the tracker left out). */
const RECORDED = [
  'GET /',
  'GET /api/items?page=1',
  'GET /api/items?page=1',
  'POST /api/cart',
  'POST /api/login',
  'GET /api/profile?view=full',
  'DELETE /api/items/b2',
];

t.test('run --har replays the recorded requests against --target', async (t) => {
  const { origin, seen } = await startRecorder(t);
  const dir = t.testdir({});
  copyFileSync(RECORDING, join(dir, 'session.har'));
  const argv = ['run', '--har', 'session.har', '--har-filter', '!static', '--target', origin];
  const result = await runCli([...argv, '-n', '60', '-c', '1', '--seed', '7', '--json-output'], {
    cwd: dir,
  });
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { total: number; failures: number };
  t.equal(report.total, 60);
  t.equal(report.failures, 0);
  t.equal(seen.length, 60, 'every request reached the server');
  t.same(
    [...new Set(seen.map((s) => `${s.method} ${s.url}`))].sort(),
    [...new Set(RECORDED)].sort(),
    'exactly the recorded API calls: no static assets, nothing else',
  );
  for (const request of seen) {
    t.equal(request.headers.host, origin.slice('http://'.length), 'only the target is loaded');
    t.match(request.headers['user-agent'], /^barrage\//);
    t.equal(request.headers['accept-language'], 'en-US,en;q=0.9', 'recorded headers are sent');
    t.equal(request.headers['accept-encoding'], 'gzip, deflate');
    for (const secret of ['cookie', 'authorization', 'x-csrf-token'])
      t.notOk(secret in request.headers, `no ${secret} header`);
  }
  const cart = seen.find((s) => s.url === '/api/cart');
  t.equal(cart?.body, '{"item":"a1","quantity":2}');
  t.equal(cart?.headers['content-type'], 'application/json');
  t.equal(cart?.headers.origin, origin, 'Origin follows the target');
  t.equal(cart?.headers.referer, `${origin}/`);
  t.equal(seen.find((s) => s.url === '/api/login')?.body, 'user=ada', 'the password was dropped');
  t.match(
    result.stderr,
    /HAR session\.har \(Playwright [\d.]+\): 13 entries, 7 kept as 6 endpoints/,
  );
  t.match(result.stderr, /skipped 2 to other hosts/);
  t.match(result.stderr, /secrets dropped/);
  t.notMatch(
    result.stdout + result.stderr,
    /recorded-(session-cookie|bearer-token|csrf-token|password|query-token)/,
  );
});

t.test(
  'barrage har --as-flow, then run: the server sees the session in recorded order',
  async (t) => {
    const { origin, seen } = await startRecorder(t);
    const dir = t.testdir({});
    copyFileSync(RECORDING, join(dir, 'session.har'));
    const har = await runCli(
      ['har', 'session.har', '--har-filter', '!static', '--as-flow', '-o', 'flow.yaml'],
      {
        cwd: dir,
      },
    );
    t.equal(har.code, 0, har.stderr);
    t.match(readFileSync(join(dir, 'flow.yaml'), 'utf8'), /flows:\n {2}- name: recording\n/);
    const run = await runCli(
      ['run', 'flow.yaml', '--target', origin, '-n', '2', '-c', '1', '--json-output'],
      { cwd: dir, env: { PASSWORD: 'from-the-environment' } },
    );
    t.equal(run.code, 0, run.stderr);
    t.same(
      seen.map((s) => `${s.method} ${s.url}`),
      [...RECORDED, ...RECORDED],
      'two iterations of the recorded flow, step by step',
    );
    t.equal(
      seen.find((s) => s.url === '/api/login')?.body,
      'user=ada&password=from-the-environment',
      'the password comes from the environment',
    );
  },
);
