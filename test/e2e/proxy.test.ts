// Proxies (docs/configuration.md, "Proxies") through a real forward proxy, Debian's tinyproxy:
// every request and WebSocket session of a run reaches the target over a tunnel the proxy opened
// (the target sees them come from the proxy's outgoing address, 127.0.0.2), NO_PROXY and
// `proxy: false` bypass it, and the proxy's credentials appear in no output.
import t, { type Test } from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';
import { ALL_REPORTS, reportTexts } from '../helpers/report-files.js';
import { startTinyproxy, tinyproxySkip } from '../helpers/tinyproxy.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/tls');
const SECRET = 's3cret-proxy-pass';
const skip = tinyproxySkip(process.env);

interface Target {
  readonly url: string;
  readonly port: number;
  /** Requests seen, by the address they came from. */
  readonly from: Map<string, number>;
}

/** Starts `server` on 127.0.0.1, counting requests by their peer address. */
async function target(t: Test, server: Server, scheme: string): Promise<Target> {
  const from = new Map<string, number>();
  server.on('request', (req, res) => {
    const peer = req.socket.remoteAddress ?? '?';
    from.set(peer, (from.get(peer) ?? 0) + 1);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { url: `${scheme}://127.0.0.1:${port}/`, port, from };
}

/** 20 requests over 2 virtual users, run in `dir` (the test's one testdir); the JSON report's total. */
async function run(
  t: Test,
  dir: string,
  url: string,
  env: Record<string, string>,
  extra: readonly string[] = [],
): Promise<{ total: number; result: SpawnResult }> {
  const result = await runCli(
    ['run', '--target', url, '-n', '20', '-c', '2', '--insecure', ...extra, '--json-output'],
    { cwd: dir, env },
  );
  t.equal(result.code, 0, result.stderr);
  return { total: (JSON.parse(result.stdout) as { total: number }).total, result };
}

t.test('http: every request goes through the proxy (HTTP_PROXY)', { skip }, async (t) => {
  const http = await target(t, createServer(), 'http');
  const dir = t.testdir({});
  const proxy = await startTinyproxy(t, dir, { connectPorts: [http.port] });
  const { total } = await run(t, dir, http.url, { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` });
  t.equal(total, 20);
  t.equal(http.from.get('127.0.0.2'), 20, 'the target saw every request come from the proxy');
  t.equal(http.from.get('127.0.0.1'), undefined, 'none came directly');
  t.equal(proxy.connects(), 2, 'the proxy opened one tunnel per virtual user (kept alive)');
});

t.test('https: TLS over the tunnel (https_proxy), timings recorded', { skip }, async (t) => {
  const tls = createTlsServer({
    key: readFileSync(join(FIXTURES, 'key.pem')),
    cert: readFileSync(join(FIXTURES, 'cert.pem')),
  });
  const https = await target(t, tls, 'https');
  const dir = t.testdir({});
  const proxy = await startTinyproxy(t, dir, { connectPorts: [https.port] });
  const { total, result } = await run(t, dir, https.url, {
    https_proxy: `127.0.0.1:${proxy.port}`,
  });
  t.equal(total, 20);
  t.equal(https.from.get('127.0.0.2'), 20, 'every request came from the proxy');
  t.equal(https.from.get('127.0.0.1'), undefined);
  t.equal(proxy.connects(), 2);
  const json = JSON.parse(result.stdout) as {
    connecting_ms: { count?: number } | null;
    tls_handshaking_ms: { max: number } | null;
  };
  t.not(json.connecting_ms, null, 'opening the tunnel is the connecting time');
  t.ok(json.tls_handshaking_ms !== null && json.tls_handshaking_ms.max > 0, 'a TLS handshake');
});

t.test('NO_PROXY and proxy: false bypass the proxy', { skip }, async (t) => {
  const http = await target(t, createServer(), 'http');
  const dir = t.testdir({ 'barrage.yaml': 'proxy: false\n' });
  const proxy = await startTinyproxy(t, dir, { connectPorts: [http.port] });
  const via = `http://127.0.0.1:${proxy.port}`;
  await run(t, dir, http.url, { HTTP_PROXY: via, NO_PROXY: 'localhost,127.0.0.1' });
  t.equal(http.from.get('127.0.0.1'), 20, 'NO_PROXY: direct');
  await run(t, dir, http.url, { HTTP_PROXY: via, HTTPS_PROXY: via }, [
    '--config',
    join(dir, 'barrage.yaml'),
  ]);
  t.equal(http.from.get('127.0.0.1'), 40, 'proxy: false: direct');
  t.equal(http.from.get('127.0.0.2'), undefined);
  t.equal(proxy.connects(), 0, 'the proxy relayed nothing');
});

t.test('proxy: in the configuration, with credentials never printed', { skip }, async (t) => {
  const http = await target(t, createServer(), 'http');
  const dir = t.testdir({});
  const proxy = await startTinyproxy(t, dir, {
    connectPorts: [http.port],
    basicAuth: `tester ${SECRET}`,
  });
  const config = join(dir, 'barrage.yaml');
  writeFileSync(
    config,
    `proxy:\n  url: http://tester:${SECRET}@127.0.0.1:${proxy.port}\n  no_proxy: example.com\n`,
  );
  const { total, result } = await run(t, dir, http.url, { NO_PROXY: '*' }, ['--config', config]);
  t.equal(total, 20);
  t.equal(http.from.get('127.0.0.2'), 20, 'its no_proxy replaces NO_PROXY: all through the proxy');
  t.notMatch(result.stdout + result.stderr, SECRET);

  const refused = await runCli(['run', '--target', http.url, '-n', '1', '--config', config], {
    cwd: dir,
    env: { HTTP_PROXY: `http://tester:${SECRET}@127.0.0.1:1` },
  });
  t.notMatch(refused.stdout + refused.stderr, SECRET, 'not in a run that used the key either');
});

t.test('malformed proxy URLs: errors naming the variable or the key', async (t) => {
  const dir = t.testdir({ 'bad.yaml': 'proxy: ftp://proxy.example:21\n' });
  const env = await runCli(['run', '--target', 'http://127.0.0.1:9/', '-n', '1'], {
    cwd: dir,
    env: { HTTPS_PROXY: `socks5://tester:${SECRET}@127.0.0.1:1080` },
  });
  t.equal(env.code, 1);
  t.match(env.stderr, 'HTTPS_PROXY');
  t.match(env.stderr, 'http:// proxy URL');
  t.notMatch(env.stdout + env.stderr, SECRET, 'the credentials are not shown');
  t.notMatch(env.stderr, /\n\s+at /, 'no stack trace');
  const key = await runCli(
    ['run', '--target', 'http://127.0.0.1:9/', '-n', '1', '--config', join(dir, 'bad.yaml')],
    { cwd: dir },
  );
  t.equal(key.code, 1);
  t.match(key.stderr, /bad\.yaml:1/);
  t.match(key.stderr, 'proxy');
  t.match(key.stderr, 'http:// proxy URL');
});

t.test('a tunnel the proxy refuses fails the request as refused', { skip }, async (t) => {
  const http = await target(t, createServer(), 'http');
  const dir = t.testdir({});
  const proxy = await startTinyproxy(t, dir, { connectPorts: [1] });
  const result = await runCli(
    ['run', '--target', http.url, '-n', '2', '-c', '1', '--json-output'],
    {
      cwd: dir,
      env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` },
    },
  );
  const json = JSON.parse(result.stdout) as { total: number; errors: Record<string, number> };
  t.same(json.errors, { refused: 2 }, 'the proxy answered 403 to CONNECT');
  t.equal(http.from.size, 0, 'nothing reached the target');
});

/** A WebSocket echo on `server` (http or https), counting sessions by their peer address. */
async function wsEcho(t: Test, server: Server, scheme: string): Promise<Target> {
  const from = new Map<string, number>();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    const peer = req.socket.remoteAddress ?? '?';
    from.set(peer, (from.get(peer) ?? 0) + 1);
    socket.on('message', (data, binary) => socket.send(data, { binary }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    wss.close();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `${scheme}://127.0.0.1:${port}/echo`, port, from };
}

/** 4 sessions of 2 messages each, over 2 virtual users, with `yaml` added; the CLI's result. */
async function wsRun(
  t: Test,
  dir: string,
  url: string,
  env: Record<string, string>,
  yaml = '',
  code = 0,
) {
  const config = join(dir, 'ws.yaml');
  writeFileSync(
    config,
    `requests: 4\nconcurrency: 2\n${yaml}endpoints:\n  - { name: echo, url: '${url}', messages: [{ text: a }, { text: b }] }\n`,
  );
  const result = await runCli(['run', config, '--json-output'], { cwd: dir, env });
  t.equal(result.code, code, result.stderr);
  return {
    result,
    json: JSON.parse(result.stdout) as { errors: object; websocket: { msgs_received: number } },
  };
}

t.test(
  'ws:// sessions go through the proxy, one tunnel each; NO_PROXY: direct',
  { skip },
  async (t) => {
    const ws = await wsEcho(t, createServer(), 'ws');
    const dir = t.testdir({});
    const proxy = await startTinyproxy(t, dir, { connectPorts: [ws.port] });
    const via = { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` };
    const { json } = await wsRun(t, dir, ws.url, via);
    t.match(json, { errors: {}, websocket: { msgs_received: 8 } }, 'every message came back');
    t.equal(ws.from.get('127.0.0.2'), 4, 'every session came from the proxy');
    t.equal(ws.from.get('127.0.0.1'), undefined, 'none came directly');
    t.equal(proxy.connects(), 4, 'one tunnel per session');

    await wsRun(t, dir, ws.url, { ...via, NO_PROXY: '127.0.0.1' });
    t.equal(ws.from.get('127.0.0.1'), 4, 'NO_PROXY: direct');
    t.equal(proxy.connects(), 4, 'the proxy relayed nothing more');

    const closed = join(dir, 'closed');
    mkdirSync(closed);
    const refusing = await startTinyproxy(t, closed, { connectPorts: [1] });
    const { json: refused } = await wsRun(
      t,
      dir,
      ws.url,
      { HTTP_PROXY: `http://127.0.0.1:${refusing.port}` },
      '',
      1, // no session succeeded: the run proved nothing
    );
    t.same(
      refused.errors,
      { refused: 4 },
      'a tunnel the proxy refuses fails the session as refused',
    );
    t.equal(ws.from.get('127.0.0.2'), 4, 'nothing more reached the target');
  },
);

t.test(
  'wss:// sessions: TLS over the tunnel, checked against tls: ca, with credentials never printed',
  { skip },
  async (t) => {
    const tls = createTlsServer({
      key: readFileSync(join(FIXTURES, 'key.pem')),
      cert: readFileSync(join(FIXTURES, 'cert.pem')),
    });
    const wss = await wsEcho(t, tls, 'wss');
    const dir = t.testdir({});
    const proxy = await startTinyproxy(t, dir, {
      connectPorts: [wss.port],
      basicAuth: `tester ${SECRET}`,
    });
    const yaml = `tls: { ca: ${join(FIXTURES, 'cert.pem')} }\nproxy: http://tester:\${PROXY_PASS}@127.0.0.1:${proxy.port}\n`;
    const { json, result } = await wsRun(
      t,
      dir,
      wss.url,
      { PROXY_PASS: SECRET },
      yaml + ALL_REPORTS,
    );
    t.match(json, { errors: {}, websocket: { msgs_received: 8 } });
    t.equal(wss.from.get('127.0.0.2'), 4, 'every session came from the proxy');
    t.equal(proxy.connects(), 4);
    const outputs = result.stdout + result.stderr + reportTexts(dir);
    t.notMatch(outputs, SECRET, 'the password is in no output or report');
  },
);
