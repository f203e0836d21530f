// A Socket.IO session to an https:// server run by the built binary: the connection takes the
// run's `tls:` settings (its CA; a server whose certificate nothing trusts is refused as tls), and
// the run's bearer auth and the endpoint's headers reach the server on the WebSocket upgrade.
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { makePki, opensslSkip } from '../helpers/openssl-pki.js';
import { runCli } from '../helpers/run-cli.js';

interface Json {
  readonly successes: number;
  readonly failures: number;
  readonly errors: Readonly<Record<string, number>>;
}

/** An https Socket.IO server logging each connection's authorization and x-team headers. */
async function tlsServer(t: Test, pki: string) {
  const seen: { authorization: string | undefined; team: string | undefined }[] = [];
  const https = createServer({
    key: readFileSync(join(pki, 'server.key')),
    cert: readFileSync(join(pki, 'server.pem')),
  });
  const io = new Server(https);
  io.of('/secure').on('connection', (socket) => {
    const { authorization, 'x-team': team } = socket.handshake.headers;
    seen.push({ authorization, team: typeof team === 'string' ? team : undefined });
    socket.emit('welcome', { ok: true });
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => void io.close(() => resolve())));
  return { url: `https://127.0.0.1:${(https.address() as AddressInfo).port}`, seen };
}

function config(url: string, ca: boolean): string {
  return [
    `target: ${url}`,
    'requests: 2',
    'concurrency: 1',
    ...(ca ? ['tls: { ca: ca.pem }'] : []),
    "auth: { type: bearer, token: 'tok-1' }",
    'endpoints:',
    '  - url: /',
    '    headers: { x-team: blue }',
    '    socketio:',
    '      namespace: /secure',
    '      session: [{ receive: { event: welcome } }]',
    '',
  ].join('\n');
}

t.test(
  'https: the tls CA is trusted, auth and headers reach the upgrade',
  { skip: opensslSkip(process.env) },
  async (t) => {
    const pki = mkdtempSync(join(tmpdir(), 'barrage-sio-'));
    t.teardown(() => rmSync(pki, { recursive: true, force: true }));
    makePki(pki);
    const server = await tlsServer(t, pki);
    const dir = t.testdir({
      'trusted.yaml': config(server.url, true),
      'untrusted.yaml': config(server.url, false),
      'ca.pem': readFileSync(join(pki, 'ca.pem'), 'utf8'),
    });
    const ok = await runCli(['run', 'trusted.yaml', '--json-output', '--no-dashboard'], {
      cwd: dir,
    });
    t.equal(ok.code, 0, ok.stderr);
    t.equal((JSON.parse(ok.stdout) as Json).successes, 2);
    t.same(server.seen, [
      { authorization: 'Bearer tok-1', team: 'blue' },
      { authorization: 'Bearer tok-1', team: 'blue' },
    ]);
    const refused = await runCli(['run', 'untrusted.yaml', '--json-output', '--no-dashboard'], {
      cwd: dir,
    });
    t.equal(refused.code, 1);
    t.same((JSON.parse(refused.stdout) as Json).errors, { tls: 2 });
    t.equal(server.seen.length, 2, 'no session reached the untrusting server');
  },
);
