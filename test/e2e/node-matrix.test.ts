// What depends on the Node barrage runs on, in a few spawned runs that .ci/run repeats on Node 22,
// 24 and 26: undici over HTTP/1.1 across worker threads, h2 over TLS (node:http2 and undici's h2),
// WebSocket sessions (ws), and a TypeScript scenario in its child process (isolated-vm's binary
// for this Node) making http calls and a ws.connect. Each count is what the server saw.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { makePki, opensslSkip } from '../helpers/openssl-pki.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

interface Json {
  readonly total: number;
  readonly failures: number;
  readonly status_codes: Readonly<Record<string, number>>;
  readonly endpoints: readonly { readonly name: string; readonly protocols?: readonly string[] }[];
  readonly checks?: { readonly passes: number; readonly fails: number };
}

/** Listens on 127.0.0.1 and closes in teardown; the port. */
async function listen(
  t: Test,
  server: { listen: (port: number, host: string, done: () => void) => unknown; address(): unknown },
  close: () => void,
): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(close);
  return (server.address() as AddressInfo).port;
}

/** Runs `yaml` (written to run.yaml in a test folder, with `files`) with --json-output. */
async function run(
  t: Test,
  yaml: string,
  files: Record<string, string> = {},
  flags: readonly string[] = [],
): Promise<{ result: SpawnResult; json: Json }> {
  const dir = t.testdir({ 'run.yaml': yaml, ...files });
  const result = await runCli(['run', 'run.yaml', '--json-output', ...flags], { cwd: dir });
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  t.equal(result.code, 0, result.stderr);
  return { result, json: JSON.parse(result.stdout) as Json };
}

t.test('HTTP/1.1 through undici on two worker threads: the server saw each request', async (t) => {
  let seen = 0;
  const server = createServer((_req, res) => {
    seen++;
    res.end('ok');
  });
  const port = await listen(t, server, () => server.close());
  const { json } = await run(
    t,
    `target: http://127.0.0.1:${port}\nrequests: 40\nconcurrency: 4\n`,
    {},
    ['--threads', '2'],
  );
  t.equal(json.total, 40);
  t.equal(seen, 40, 'the server saw the 40');
});

t.test(
  'h2 over TLS: negotiated by ALPN, each stream seen',
  { skip: opensslSkip(process.env) },
  async (t) => {
    const pki = mkdtempSync(join(tmpdir(), 'barrage-matrix-pki-'));
    t.teardown(() => rmSync(pki, { recursive: true, force: true }));
    makePki(pki);
    let streams = 0;
    const server = createSecureServer({
      key: readFileSync(join(pki, 'server.key')),
      cert: readFileSync(join(pki, 'server.pem')),
      allowHTTP1: true,
    });
    server.on('stream', (stream) => {
      streams++;
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      stream.end('ok');
    });
    const port = await listen(t, server, () => server.close());
    const { json } = await run(
      t,
      `target: https://127.0.0.1:${port}\nrequests: 6\nconcurrency: 2\nhttp2: true\ntls: { ca: ${join(pki, 'ca.pem')} }\n`,
    );
    t.same(json.endpoints[0]!.protocols, ['h2']);
    t.equal(json.status_codes['200'], 6);
    t.equal(streams, 6, 'the server saw 6 h2 streams');
  },
);

t.test('WebSocket sessions: every frame reached the server and came back', async (t) => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((done) => server.once('listening', done));
  t.teardown(() => server.close());
  let frames = 0;
  server.on('connection', (socket) =>
    socket.on('message', (data, binary) => {
      frames++;
      socket.send(data, { binary });
    }),
  );
  const { port } = server.address() as AddressInfo;
  const { json } = await run(
    t,
    `requests: 3\nconcurrency: 1\nendpoints:\n  - { name: echo, url: 'ws://127.0.0.1:${port}/', messages: [{ text: one }, { text: two }] }\n`,
  );
  t.equal(json.failures, 0);
  t.equal(frames, 6, '3 sessions of 2 frames');
});

const SCENARIO = `import { check, http, ws } from 'barrage';
export default async function (): Promise<void> {
  const res = await http.post('/echo', { n: 1 });
  check(res, { 'the body came back': (r) => r.json('$.n') === 1 });
  await ws.connect('WS_URL', undefined, (socket) => {
    socket.on('open', () => socket.send('ping'));
    socket.on('message', (text) => {
      check(text, { 'the frame came back': (r) => r === 'ping' });
      socket.close();
    });
  });
}
`;

t.test('a TypeScript scenario in its child process: http and ws.connect', async (t) => {
  let posts = 0;
  const server = createServer((req, res) => {
    posts++;
    req.pipe(res);
  });
  const port = await listen(t, server, () => server.close());
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) =>
    socket.on('message', (data, binary) => socket.send(data, { binary })),
  );
  const wsUrl = `ws://127.0.0.1:${port}/socket`;
  const dir = t.testdir({ 'load.ts': SCENARIO.replace('WS_URL', wsUrl) });
  writeFileSync(join(dir, 'run.yaml'), `scenario: load.ts\ntarget: http://127.0.0.1:${port}\n`);
  const result = await runCli(['run', 'run.yaml', '--json-output', '-n', '4', '-c', '2'], {
    cwd: dir,
  });
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  t.equal(json.checks?.passes, 8, 'both checks of 4 iterations passed');
  t.equal(json.checks?.fails, 0);
  t.equal(posts, 4, 'the server saw the 4 posts');
});
