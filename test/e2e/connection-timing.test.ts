// http_req_connecting and http_req_tls_handshaking: one sample per connection opened, none for a
// request on a kept-alive one, against real HTTP and HTTPS servers that count their connections.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { decodeHistogram } from '../../runtime/metrics/histogram.js';
import { runCli } from '../helpers/run-cli.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/tls');

interface Json {
  readonly total: number;
  readonly connecting_ms: { readonly max: number } | null;
  readonly tls_handshaking_ms: { readonly max: number } | null;
  readonly thresholds: { readonly results: readonly { readonly pass: boolean }[] };
}

interface Raw {
  readonly snapshot: { readonly connecting?: string; readonly tlsHandshaking?: string };
}

/** Starts `server` on 127.0.0.1, counting the connections it accepts (`event`: which ones). */
async function counted(t: Test, server: Server, event: string): Promise<() => number> {
  let opened = 0;
  server.on(event, () => opened++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return () => opened;
}

/** How many samples an encoded histogram of a raw result holds. */
function samples(encoded: string | undefined): number {
  return encoded === undefined ? 0 : decodeHistogram(encoded).totalCount;
}

/** Runs 10 requests over 2 virtual users with thresholds on both metrics; JSON and raw result. */
async function run(t: Test, url: string): Promise<{ json: Json; raw: Raw }> {
  const dir = t.testdir({});
  const result = await runCli(
    [
      'run',
      '--target',
      url,
      '-n',
      '10',
      '-c',
      '2',
      '--insecure',
      '--threshold',
      'http_req_connecting:max < 60000',
      '--threshold',
      'http_req_tls_handshaking:max < 60000',
      '--raw',
      join(dir, 'raw.json'),
      '--json-output',
    ],
    { cwd: dir },
  );
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return {
    json: JSON.parse(result.stdout) as Json,
    raw: JSON.parse(readFileSync(join(dir, 'raw.json'), 'utf8')) as Raw,
  };
}

t.test('HTTP: a connecting sample per connection opened, no TLS handshake', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  const opened = await counted(t, server, 'connection');
  const { port } = server.address() as AddressInfo;
  const { json, raw } = await run(t, `http://127.0.0.1:${port}/`);
  t.equal(json.total, 10);
  t.equal(samples(raw.snapshot.connecting), opened(), 'one sample per connection the server saw');
  t.ok(opened() <= 2, `${opened()} connections for 10 requests of 2 users: kept alive`);
  t.not(json.connecting_ms, null);
  t.equal(json.tls_handshaking_ms, null, 'no TLS');
  t.same(
    json.thresholds.results.map((r) => r.pass),
    [true, false],
    'a threshold on a handshake that never happened has no data, and fails',
  );
});

t.test('HTTPS: a TLS handshake sample per connection opened', async (t) => {
  const server = createTlsServer(
    {
      key: readFileSync(join(FIXTURES, 'key.pem')),
      cert: readFileSync(join(FIXTURES, 'cert.pem')),
    },
    (_req, res) => res.end('ok'),
  );
  const opened = await counted(t, server, 'secureConnection');
  const { port } = server.address() as AddressInfo;
  const { json, raw } = await run(t, `https://127.0.0.1:${port}/`);
  t.equal(json.total, 10);
  t.equal(samples(raw.snapshot.tlsHandshaking), opened(), 'one handshake per TLS connection');
  t.equal(samples(raw.snapshot.connecting), opened());
  t.ok(json.tls_handshaking_ms!.max > 0, 'a handshake takes time');
  t.same(
    json.thresholds.results.map((r) => r.pass),
    [true, true],
  );
});
