// --http-debug as a user runs it (docs/configuration.md, HTTP debug log): the built CLI against a
// target that fails every third request with a 500 (by path for the sample failures), sending an
// Authorization header built from ${TOKEN} and a body of more than a KiB. The log holds what it
// selects, redacted and cut, within its bounds; bad values stop the run before any traffic.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import t, { type Test } from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import { runInProcess } from '../helpers/in-process-cli.js';

const TOKEN = 'tok-3f9a27c1d5e8b604';
const BODY = `{"note":"${'n'.repeat(1500)}"}`;
const CHROMIUM = '/usr/bin/chromium';

/** A target failing every third request with 500 (and /fail always, /gone with 404). */
async function target(t: Test): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen++;
      const status =
        req.url === '/fail' ? 500 : req.url === '/gone' ? 404 : seen % 3 === 0 ? 500 : 200;
      res.writeHead(status, { 'content-type': 'text/plain', 'set-cookie': `sid=${seen}` });
      // The credential comes back in the body: it must be hidden there too.
      res.end(`${status} for ${req.headers.authorization ?? ''} ${'r'.repeat(1500)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => seen };
}

function config(url: string, extra: readonly string[] = [], requests = 30): string {
  return [
    `target: ${url}`,
    'concurrency: 2',
    `requests: ${requests}`,
    'headers: { Authorization: "Bearer ${TOKEN}" }',
    'endpoints:',
    `  - { name: post, url: /things, method: POST, body: '${BODY}' }`,
    ...extra,
    '',
  ].join('\n');
}

function lines(file: string): ExchangeRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ExchangeRecord);
}

const env = { TOKEN };

t.test('--http-debug=failed: the failing requests only, cut and redacted', async (t) => {
  const { url } = await target(t);
  const dir = t.testdir({ 'load.yaml': config(url) });
  const run = await runInProcess(
    [
      'run',
      'load.yaml',
      '--http-debug=failed',
      '--http-debug-file',
      'debug.ndjson',
      '--json',
      'r.json',
      '--no-dashboard',
    ],
    { cwd: dir, env },
  );
  t.equal(run.code, 0, run.stderr);
  const file = join(dir, 'debug.ndjson');
  const result = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as JsonResult;
  const records = lines(file);
  t.equal(result.failures, 10);
  t.equal(records.length, result.failures, 'one line per failed request (under the rate bound)');
  t.same(result.http_debug, { written: 10, dropped: 0 });
  t.match(run.stdout, 'HTTP debug log: 10 lines written, 0 dropped');
  t.equal(statSync(file).mode & 0o777, 0o600, 'created with mode 0600');
  for (const r of records) {
    t.equal(r.error_kind, 'http_5xx');
    t.equal(r.response?.status, 500);
    t.equal(r.request.headers.Authorization, '[redacted]');
    t.equal(r.response?.headers['set-cookie'], '[redacted]');
    t.equal(Buffer.byteLength(r.request.body ?? ''), 1024, 'the request body cut to 1 KiB');
    t.same([r.request.body_truncated, r.request.body_bytes], [true, Buffer.byteLength(BODY)]);
    t.ok(Buffer.byteLength(r.response?.body ?? '') <= 1024);
    t.equal(r.response?.body_truncated, true);
    t.match(r.response?.body, /^500 for \[redacted\] r+$/);
    t.equal(r.method, 'POST');
    t.equal(r.url, `${url}/things`);
  }
  for (const [name, text] of [
    ['the log', readFileSync(file, 'utf8')],
    ['the JSON result', readFileSync(join(dir, 'r.json'), 'utf8')],
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const)
    t.notMatch(text, TOKEN, `the token is nowhere in ${name}`);
});

t.test("all: the 200s too; the flag keeps the file's other keys", async (t) => {
  const { url } = await target(t);
  const dir = t.testdir({ 'load.yaml': config(url, ['http_debug: { per_second: 1000 }']) });
  const run = await runInProcess(
    ['run', 'load.yaml', '--http-debug=all', '--http-debug-file', 'd.ndjson', '--json', 'r.json'],
    { cwd: dir, env },
  );
  t.equal(run.code, 0, run.stderr);
  const records = lines(join(dir, 'd.ndjson'));
  t.equal(records.length, 30);
  t.equal(records.filter((r) => r.error_kind === null && r.response?.status === 200).length, 20);
});

t.test('the size bound and the rate bound drop lines and count them', async (t) => {
  const { url } = await target(t);
  const dir = t.testdir({
    'size.yaml': config(url, [
      'http_debug: { requests: all, file: size.ndjson, max_bytes: 6000, per_second: 1000 }',
    ]),
    'rate.yaml': config(url, ['http_debug: { requests: all, file: rate.ndjson, per_second: 1 }']),
  });
  const size = await runInProcess(['run', 'size.yaml', '--json', 'size.json'], { cwd: dir, env });
  t.equal(size.code, 0, size.stderr);
  const sized = JSON.parse(readFileSync(join(dir, 'size.json'), 'utf8')) as JsonResult;
  t.ok(statSync(join(dir, 'size.ndjson')).size <= 6000, 'the file stays within max_bytes');
  t.ok((sized.http_debug?.dropped ?? 0) > 0, `dropped counted (${sized.http_debug?.dropped})`);
  t.equal((sized.http_debug?.written ?? 0) + (sized.http_debug?.dropped ?? 0), 30);
  t.equal(lines(join(dir, 'size.ndjson')).length, sized.http_debug?.written);

  // 30 requests take far less than the 29 s that one line a second would need to write them all.
  const rate = await runInProcess(['run', 'rate.yaml', '--json', 'rate.json'], { cwd: dir, env });
  t.equal(rate.code, 0, rate.stderr);
  const rated = JSON.parse(readFileSync(join(dir, 'rate.json'), 'utf8')) as JsonResult;
  t.ok((rated.http_debug?.dropped ?? 0) > 0, `dropped counted (${rated.http_debug?.dropped})`);
  t.equal((rated.http_debug?.written ?? 0) + (rated.http_debug?.dropped ?? 0), 30);
  t.equal(lines(join(dir, 'rate.ndjson')).length, rated.http_debug?.written);
});

t.test('two threads: lines from both, well-formed NDJSON', async (t) => {
  const { url } = await target(t);
  const dir = t.testdir({ 'load.yaml': config(url, ['http_debug: { per_second: 1000 }'], 60) });
  const run = await runInProcess(
    ['run', 'load.yaml', '--threads', '2', '--http-debug=all', '--http-debug-file', 'd.ndjson'],
    { cwd: dir, env },
  );
  t.equal(run.code, 0, run.stderr);
  const records = lines(join(dir, 'd.ndjson'));
  t.equal(records.length, 60, 'every line parses');
  t.same(new Set(records.map((r) => r.vu)).size, 2, "both threads' virtual users");
  t.notMatch(readFileSync(join(dir, 'd.ndjson'), 'utf8'), TOKEN);
});

t.test('--segment runs and merge keep the sample failures and sum the counts', async (t) => {
  const { url } = await target(t);
  const dir = t.testdir({ 'load.yaml': config(url, ['http_debug: { file: d.ndjson }']) });
  for (const segment of ['1/2', '2/2']) {
    const run = await runInProcess(
      ['run', 'load.yaml', '--segment', segment, '--raw', `${segment[0]}.raw`],
      {
        cwd: dir,
        env,
      },
    );
    t.equal(run.code, 0, run.stderr);
  }
  const merged = await runInProcess(['merge', '1.raw', '2.raw', '--json', 'm.json'], { cwd: dir });
  t.equal(merged.code, 0, merged.stderr);
  const result = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as JsonResult;
  t.equal(result.failures, 10);
  t.equal(result.sample_failures?.length, 3, 'the first 3 of the one endpoint and kind');
  const times = (result.sample_failures ?? []).map((r) => r.time);
  t.same(times, [...times].sort(), 'in time order');
  t.same(result.http_debug, { written: 10, dropped: 0 }, "both segments' lines");
  t.equal(lines(join(dir, 'd.ndjson')).length, 10, 'both processes appended to one file');
  t.notMatch(readFileSync(join(dir, 'm.json'), 'utf8'), TOKEN);
});

t.test(
  'a TypeScript scenario: its child process sends the lines; options may not set it',
  async (t) => {
    const { url, seen } = await target(t);
    const dir = t.testdir({
      's.ts': [
        "import { http } from 'barrage';",
        'export default async function (): Promise<void> {',
        `  await http.post('/things', '${BODY}');`,
        '}',
        '',
      ].join('\n'),
      'own.ts': [
        "import { http } from 'barrage';",
        "export const options = { http_debug: { requests: 'all', file: 'mine.ndjson' } };",
        'export default async function (): Promise<void> {',
        "  await http.get('/');",
        '}',
        '',
      ].join('\n'),
    });
    const header = `Authorization: Bearer ${TOKEN}`;
    const flags = ['--target', url, '-n', '9', '-c', '1', '--header', header, '--no-typecheck'];
    const run = await runInProcess(
      ['run', '--scenario', 's.ts', ...flags, '--http-debug', '--http-debug-file', 'd.ndjson'],
      { cwd: dir },
    );
    t.equal(run.code, 0, run.stderr);
    const records = lines(join(dir, 'd.ndjson'));
    t.equal(records.length, 3, 'every third request failed');
    for (const r of records) {
      t.equal(r.request.headers.authorization ?? r.request.headers.Authorization, '[redacted]');
      t.equal(r.request.body_truncated, true);
      t.match(r.response?.body, /^500 for \[redacted\] r+$/);
    }
    t.notMatch(readFileSync(join(dir, 'd.ndjson'), 'utf8'), TOKEN);
    const before = seen();
    const refused = await runInProcess(['run', '--scenario', 'own.ts', ...flags], { cwd: dir });
    t.equal(refused.code, 1);
    t.match(refused.stderr, /own\.ts \(options\): http_debug: expected no http_debug in options/);
    t.equal(seen(), before, 'nothing sent');
    t.notOk(existsSync(join(dir, 'mine.ndjson')));
  },
);

t.test('bad values: exit 1, the flag or key named, nothing sent', async (t) => {
  const { url, seen } = await target(t);
  const dir = t.testdir({
    'load.yaml': config(url),
    'bytes.yaml': config(url, ['http_debug: { max_bytes: -1 }']),
    afile: 'not a folder',
  });
  const cases: [string, string[], RegExp][] = [
    [
      '--http-debug=some',
      ['run', 'load.yaml', '--http-debug=some'],
      /--http-debug: http_debug\.requests: expected one of failed, all/,
    ],
    [
      'max_bytes: -1',
      ['run', 'bytes.yaml'],
      /bytes\.yaml:7:\d+: http_debug\.max_bytes: expected a positive integer/,
    ],
    [
      'an unwritable file',
      ['run', 'load.yaml', '--http-debug', '--http-debug-file', 'afile/debug.ndjson'],
      /--http-debug-file: http_debug\.file: expected a file barrage can write .*, got "afile\/debug\.ndjson": E/,
    ],
  ];
  for (const [name, argv, error] of cases) {
    const run = await runInProcess(argv, { cwd: dir, env });
    t.equal(run.code, 1, name);
    t.match(run.stderr, error, name);
    t.match(run.stderr, 'nothing was sent', name);
  }
  t.equal(seen(), 0, 'the target saw no request');
  t.notOk(existsSync(join(dir, 'debug.ndjson')));
});

t.test(
  'sample failures: at most 3 per endpoint and kind, redacted, in the HTML report',
  async (t) => {
    const { url } = await target(t);
    const dir = t.testdir({
      'load.yaml': [
        `target: ${url}`,
        'concurrency: 2',
        'requests: 60',
        'seed: 7',
        'headers: { Authorization: "Bearer ${TOKEN}" }',
        'endpoints:',
        '  - { name: fine, url: /ok }',
        '  - { name: broken, url: /fail }',
        '  - { name: missing, url: /gone }',
        '',
      ].join('\n'),
    });
    const run = await runInProcess(['run', 'load.yaml', '--json', 'r.json', '--html', 'r.html'], {
      cwd: dir,
      env,
    });
    t.equal(run.code, 0, run.stderr);
    const result = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as JsonResult;
    const samples = result.sample_failures ?? [];
    const byKey = new Map<string, number>();
    for (const s of samples)
      byKey.set(
        `${s.endpoint} ${s.error_kind}`,
        (byKey.get(`${s.endpoint} ${s.error_kind}`) ?? 0) + 1,
      );
    t.ok(result.failures > samples.length, `more failures (${result.failures}) than samples`);
    t.same([...byKey.keys()].sort(), ['broken http_5xx', 'fine http_5xx', 'missing http_4xx']);
    for (const [key, n] of byKey) t.ok(n <= 3, `${key}: ${n} ≤ 3`);
    t.equal(byKey.get('broken http_5xx'), 3);
    for (const s of samples) t.equal(s.request.headers.Authorization, '[redacted]');
    t.equal(result.http_debug, undefined, 'no debug log: no counts');
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    for (const text of [html, readFileSync(join(dir, 'r.json'), 'utf8')]) t.notMatch(text, TOKEN);

    const skip = !existsSync(CHROMIUM) && process.env.CI === undefined;
    t.test(
      'in headless Chromium',
      { skip: skip && 'chromium is missing: apt-get install chromium' },
      async (t) => {
        const profile = mkdtempSync(join(tmpdir(), 'barrage-chromium-'));
        const browser = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM,
          headless: true,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
          ],
        });
        t.teardown(async () => {
          await browser.close();
          rmSync(profile, { recursive: true, force: true });
        });
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(pathToFileURL(join(dir, 'r.html')).href);
        const summaries = await page.$$eval(
          '#sample-failures details > summary',
          (nodes: unknown[]) =>
            (nodes as { textContent: string | null }[]).map((n) => n.textContent ?? ''),
        );
        t.equal(summaries.length, 3, 'one <details> per endpoint and kind');
        t.match(summaries.join('\n'), /broken: http_5xx \(first 3 requests\)/);
        t.equal(
          await page.$$eval('#sample-failures details[open]', (n: unknown[]) => n.length),
          0,
          'collapsed',
        );
        const text = await page.textContent('#sample-failures');
        t.match(text, 'Authorization');
        t.match(text, '[redacted]');
        t.same(errors, []);
      },
    );
  },
);
