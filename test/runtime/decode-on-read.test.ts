// Only a compressed body something reads is decoded (issue 47, docs/configuration.md,
// _Compression_): against a gzip target that counts the bytes it wrote, a run that reads no body
// counts them all on the wire and decodes none; one whose extractor reads the list decodes each
// body, extracts from it, and still counts the wire bytes the server wrote. In process.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runInProcess } from '../helpers/in-process-cli.js';

const LIST = Buffer.from(JSON.stringify({ items: [{ id: 1070, name: 'x'.repeat(2000) }] }));
const GZIPPED = gzipSync(LIST);
const REQUESTS = 20;

interface Result {
  total: number;
  failures: number;
  bytes_received: number;
  bytes_decoded: number;
}

/** The gzip target: /list answers the compressed list, /item/:id counts the ids it was sent. */
async function gzipTarget(t: Test) {
  const seen = { written: 0, items: [] as string[] };
  const server = createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith('/item/')) {
      seen.items.push(req.url.slice('/item/'.length));
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    seen.written += GZIPPED.length;
    res.end(GZIPPED);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function run(t: Test, config: string): Promise<Result> {
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runInProcess(['run', join(dir, 'load.yaml'), '--json-output']);
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Result;
}

t.test('a gzip body nothing reads is counted on the wire, not decoded', async (t) => {
  const target = await gzipTarget(t);
  const r = await run(t, `target: ${target.url}/list\nconcurrency: 2\nrequests: ${REQUESTS}\n`);
  t.equal(r.total, REQUESTS);
  t.equal(r.failures, 0);
  t.equal(r.bytes_received, target.seen.written, "the wire bytes are the server's");
  t.equal(r.bytes_received, REQUESTS * GZIPPED.length);
  t.equal(r.bytes_decoded, 0, 'nothing read, nothing decoded');
});

t.test('a gzip body an extractor reads is decoded; the wire bytes stay', async (t) => {
  const target = await gzipTarget(t);
  const config = [
    `target: ${target.url}`,
    'concurrency: 1',
    `requests: ${REQUESTS / 2}`,
    'endpoints:',
    '  - { name: list, url: /list, extract: { id: "$.items[0].id" } }',
    '  - { name: item, url: "/item/{{id}}" }',
    'flows:',
    '  - { name: browse, steps: [list, item] }',
  ].join('\n');
  const r = await run(t, config);
  t.equal(r.failures, 0);
  t.same(new Set(target.seen.items), new Set(['1070']), 'the id came out of the decoded body');
  t.equal(r.bytes_received, target.seen.written, "the wire bytes are the server's");
  t.equal(r.bytes_decoded, (REQUESTS / 2) * LIST.length, 'every list read was decoded');
});
