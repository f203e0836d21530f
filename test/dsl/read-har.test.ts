import { openSync, closeSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MAX_HAR_BYTES, parseHarText, readHarFile } from '../../dsl/har/read-har.js';

const entry = (url = 'https://a.test/x') => ({
  request: { method: 'GET', url, headers: [] },
  response: { status: 200, headers: [], content: { mimeType: 'application/json' } },
});
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });

t.test('a well-formed HAR: entries kept in order, unknown fields ignored', async (t) => {
  const parsed = parseHarText(
    'a.har',
    har([entry('https://a.test/1'), { ...entry('https://a.test/2'), extra: 1 }]),
  );
  t.ok(parsed.ok);
  if (!parsed.ok) return;
  t.same(
    parsed.value.entries.map((e) => e?.request.url),
    ['https://a.test/1', 'https://a.test/2'],
  );
  t.equal(parsed.value.creator, undefined);
});

t.test('a byte order mark is skipped, headers default to none', async (t) => {
  const text = `\uFEFF${JSON.stringify({ log: { creator: { name: 'Fiddler', version: '5' }, entries: [{ request: { method: 'GET', url: 'http://h/' }, response: { status: 200 } }] } })}`;
  const parsed = parseHarText('f.har', text);
  t.ok(parsed.ok);
  if (!parsed.ok) return;
  t.same(parsed.value.entries[0]?.request.headers, []);
  t.same(parsed.value.creator, { name: 'Fiddler', version: '5' });
});

/** Text, and what the one issue must say. */
const BAD: readonly [string, string, RegExp][] = [
  ['not JSON at all', 'hello', /^text that is not JSON/],
  ['JSON cut off', '{"log":{"entries":[', /it ends too early/],
  ['JSON with a position', '{"log":1 2}', /not JSON \(line 1, column \d+\)/],
  ['not a HAR: a list', '[1,2]', /^a list without log$/],
  ['not a HAR: no entries', '{"log":{"version":"1.2"}}', /^a mapping without log\.entries$/],
  ['not a HAR: entries not a list', '{"log":{"entries":{}}}', /^a mapping without log\.entries$/],
];

t.test('not JSON or not a HAR: one clear issue naming the file', async (t) => {
  for (const [what, text, actual] of BAD) {
    const parsed = parseHarText('rec.har', text);
    t.notOk(parsed.ok, what);
    if (parsed.ok) continue;
    t.equal(parsed.error.length, 1, what);
    t.match(parsed.error[0], { code: 'har_error', source: { kind: 'har', file: 'rec.har' } }, what);
    t.match(parsed.error[0]?.expected, /HAR file/, what);
    t.match(parsed.error[0]?.actual, actual, what);
  }
});

t.test('a HARP file (JSONP-wrapped HAR) is unwrapped; a broken one says HARP', async (t) => {
  const parsed = parseHarText('rec.harp', `onInputData(${har([entry()])});\n`);
  t.ok(parsed.ok);
  if (parsed.ok) t.equal(parsed.value.entries.length, 1);
  const broken = parseHarText('rec.harp', 'onInputData({"log": {);');
  t.notOk(broken.ok);
  if (!broken.ok) t.match(broken.error[0]?.actual, /^a HARP file whose JSON is broken \(line 1/);
});

t.test('the JSON parser message, which quotes the input, is never shown', async (t) => {
  const parsed = parseHarText('rec.har', '{"cookie":"sid=supersecret" oops}');
  t.notOk(parsed.ok);
  if (!parsed.ok) t.notMatch(JSON.stringify(parsed.error), 'supersecret');
});

t.test(
  'malformed entries: left out, counted by problem, every problem kept with its index',
  async (t) => {
    const parsed = parseHarText(
      'rec.har',
      har([
        entry(),
        { request: { method: 'GET' }, response: { status: 200 } },
        entry(),
        { request: { method: 'GET', url: 'http://h/', headers: 'Cookie: x' }, response: {} },
        'nonsense',
      ]),
    );
    t.ok(parsed.ok, 'a file is refused only when nothing replayable remains (har-import.ts)');
    if (!parsed.ok) return;
    t.same(
      parsed.value.entries.map((e) => e !== undefined),
      [true, false, true, false, false],
    );
    t.same(parsed.value.malformed, [
      { index: 1, reason: 'malformed entry (request.url: expected text (request URL))' },
      { index: 3, reason: 'malformed entry (request.headers: expected a list of headers)' },
      {
        index: 4,
        reason:
          'malformed entry (the entry: expected a mapping with request and response (HAR entry))',
      },
    ]);
    t.match(parsed.value.issues, [
      {
        source: { kind: 'har', entry: 1 },
        path: ['request', 'url'],
        expected: 'text (request URL)',
        actual: 'nothing',
      },
      {
        source: { kind: 'har', entry: 3 },
        path: ['request', 'headers'],
        expected: 'a list of headers',
        actual: 'text',
      },
      { source: { kind: 'har', entry: 3 }, path: ['response', 'status'], actual: 'nothing' },
      { source: { kind: 'har', entry: 4 }, path: [], expected: /HAR entry/, actual: 'text' },
    ]);
    t.equal(parsed.value.issues.length, 4);
    t.notMatch(JSON.stringify(parsed.value), 'Cookie: x', 'values are described, never quoted');
  },
);

t.test('thousands of broken entries: the first 20 listed, the rest counted', async (t) => {
  const parsed = parseHarText('rec.har', har(Array.from({ length: 1000 }, () => ({}))));
  t.ok(parsed.ok);
  if (!parsed.ok) return;
  t.equal(parsed.value.malformed.length, 1000);
  const first = parsed.value.issues.filter(
    (i) => i.source.kind === 'har' && i.source.entry !== undefined,
  );
  t.equal(new Set(first.map((i) => (i.source.kind === 'har' ? i.source.entry : -1))).size, 20);
  t.match(parsed.value.issues.at(-1)?.actual, /^980 more broken entries/);
});

t.test(
  'files: missing, a directory, and one over the size limit refused before reading',
  async (t) => {
    const dir = t.testdir({ 'ok.har': har([entry()]), sub: {} });
    t.match(readHarFile(join(dir, 'nope.har'), 'nope.har'), {
      ok: false,
      error: [{ code: 'file_not_found', source: { kind: 'har', file: 'nope.har' } }],
    });
    t.match(readHarFile(join(dir, 'sub'), 'sub'), {
      ok: false,
      error: [{ code: 'file_unreadable' }],
    });
    // A sparse 300 MiB file: stat reports its size, and no byte of it is ever read.
    const huge = join(dir, 'huge.har');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
    t.match(readHarFile(huge, 'huge.har'), {
      ok: false,
      error: [
        { code: 'file_too_large', expected: 'a HAR file of at most 50 MiB', actual: '300 MiB' },
      ],
    });
    t.equal(MAX_HAR_BYTES, 50 * 1024 * 1024);
    t.match(readHarFile(join(dir, 'ok.har'), 'ok.har'), { ok: true, value: { file: 'ok.har' } });
  },
);
