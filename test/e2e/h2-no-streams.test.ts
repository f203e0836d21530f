// An HTTP/2 server that allows no stream (SETTINGS maxConcurrentStreams 0) keeps every request in
// undici's queue, where no abort reaches it: the request's deadline must cover that wait too, so
// each request fails as a timeout, the run ends and its reports are written.
import t from 'tap';
import { createSecureServer } from 'node:http2';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePki, opensslSkip } from '../helpers/openssl-pki.js';
import { runCli } from '../helpers/run-cli.js';

t.test(
  'requests queued for a stream the server never allows fail as timeouts',
  { skip: opensslSkip(process.env) },
  async (t) => {
    const pki = mkdtempSync(join(tmpdir(), 'barrage-h2-none-'));
    t.teardown(() => rmSync(pki, { recursive: true, force: true }));
    makePki(pki);
    let streams = 0;
    let sessions = 0;
    const server = createSecureServer({
      key: readFileSync(join(pki, 'server.key')),
      cert: readFileSync(join(pki, 'server.pem')),
      settings: { maxConcurrentStreams: 0 },
    });
    server.on('session', () => sessions++);
    server.on('stream', (stream) => {
      streams++;
      stream.respond({ ':status': 200 });
      stream.end('ok');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    t.teardown(() => new Promise<void>((done) => server.close(() => done())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = t.testdir({
      'load.yaml': `target: ${url}\nhttp2: true\ntls: { ca: ${join(pki, 'ca.pem')} }\nrequests: 3\nconcurrency: 1\ntimeout: 1s\nendpoints:\n  - { url: / }\n`,
    });
    const result = await runCli(
      ['run', 'load.yaml', '--threads', '1', '--json', 'r.json', '--html', 'r.html'],
      { cwd: dir, killAfterMs: 60_000 },
    );
    t.equal(result.signal, null, 'the run ended by itself');
    t.equal(result.code, 1, 'nothing succeeded: the run proved nothing');
    t.match(result.stderr, 'barrage: the run failed: none of its 3 requests succeeded');
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
      total: number;
      errors: Record<string, number>;
    };
    t.equal(json.total, 3, 'the plan’s three requests');
    t.same(json.errors, { timeout: 3 }, 'each failed as a timeout');
    t.ok(existsSync(join(dir, 'r.html')), 'the HTML report was written');
    t.equal(streams, 0, 'the server accepted no stream');
    t.ok(sessions >= 1, 'the client connected');
  },
);
