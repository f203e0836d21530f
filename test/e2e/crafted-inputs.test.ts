// Crafted inputs are refused clearly, never with a stack trace: a HAR whose request body nests
// 100,000 arrays or 50,000 objects (every walk of a body after JSON.parse is recursive), and
// `compare` of a result listing 100,000 endpoints (its tables overflowed the stack).
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/run-cli.js';

const RESULT = fileURLToPath(new URL('../fixtures/results/endpoints/result.json', import.meta.url));

/** A HAR entry POSTing `text` as JSON. */
function entry(text: string) {
  return {
    startedDateTime: '2024-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'POST',
      url: 'http://shop.example/api',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: text.length,
      postData: { mimeType: 'application/json', text },
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: 0, mimeType: 'text/plain' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

const har = (texts: string[]) =>
  JSON.stringify({
    log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: texts.map(entry) },
  });

t.test('a HAR body nested deeper than 512 levels is refused, naming the entry', async (t) => {
  const dir = t.testdir({
    'arrays.har': har(['{"a":1}', '{"b":2}', '['.repeat(100_000) + ']'.repeat(100_000)]),
    'objects.har': har(['{"a":1}', '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)]),
    'fine.har': har(['{"a":1}', '['.repeat(500) + ']'.repeat(500)]),
  });
  for (const [file, n] of [
    ['arrays.har', 3],
    ['objects.har', 2],
  ] as const) {
    const result = await runCli(['har', file, '-o', 'out.yaml'], { cwd: dir, killAfterMs: 60_000 });
    t.equal(result.code, 1, file);
    t.match(result.stderr, `HAR entry ${n}: a JSON body nested deeper than 512 levels`, file);
    t.match(result.stderr, `${file} log.entries[${n - 1}]`, file);
    t.notMatch(result.stderr, /^\s+at |internal error|RangeError/m, `${file}: no stack trace`);
  }
  const fine = await runCli(['har', 'fine.har', '-o', 'out.yaml'], { cwd: dir });
  t.equal(fine.code, 0, `500 levels are imported: ${fine.stderr}`);
});

t.test('compare refuses a result listing 100,000 endpoints', async (t) => {
  const dir = t.testdir({});
  const result = JSON.parse(readFileSync(RESULT, 'utf8')) as { endpoints: object[] };
  writeFileSync(join(dir, 'base.json'), JSON.stringify(result));
  const endpoint = { requests: 1, failures: 0, latency_ms: null };
  result.endpoints = Array.from({ length: 100_000 }, (_, i) => ({ ...endpoint, name: `e${i}` }));
  writeFileSync(join(dir, 'huge.json'), JSON.stringify(result));
  const run = await runCli(['compare', 'base.json', 'huge.json'], {
    cwd: dir,
    killAfterMs: 60_000,
  });
  t.equal(run.code, 1);
  t.match(run.stderr, /huge\.json: endpoints: .*got a list of 100000 \(at most 10000 endpoints\)/);
  t.notMatch(run.stderr, /^\s+at |internal error|RangeError/m, 'no stack trace');
});
