import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

/** A request as the server received it. */
interface Received {
  readonly method: string;
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Answers GET /start with JSON and a Location; records every request. */
async function server(t: Test): Promise<{ url: string; port: number; seen: Received[] }> {
  const seen: Received[] = [];
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      if (req.url === '/start') {
        res.setHeader('location', '/login');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ id: 1070, quote: 'say "hi"', on: true, tags: ['a'] }));
      } else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => http.close());
  const port = (http.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, port, seen };
}

/** Files of a test folder: text or bytes, and folders of bytes. */
type FixtureFiles = Record<string, string | Buffer | Record<string, Buffer>>;

/** `barrage run --json-output` spawned in a test folder. */
async function run(t: Test, config: string, files: FixtureFiles = {}) {
  const dir = t.testdir({ 'load.yaml': config, ...files });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as {
    total: number;
    errors: Record<string, number>;
    unsent_errors: Record<string, number>;
  };
}

const VALUES = ['A&B=C', 'c++', 'product 1', 'café'];

t.test('feeder values arrive exactly as sent: path, url query, query: and form:', async (t) => {
  const target = await server(t);
  const csv = `v\n${VALUES.map((v) => `"${v}"`).join('\n')}\n`;
  const config = `target: ${target.url}
concurrency: 1
requests: 4
feeder: { file: values.csv }
endpoints:
  - { name: path, url: "/p/{{v}}?in={{v}}" }
  - { name: query, url: "/q?fixed=1", query: { v: "{{v}}", n: [1, 2] } }
  - { name: form, url: /f, method: POST, form: { v: "{{v}}" } }
flows:
  - { name: all, steps: [path, query, form] }
`;
  const result = await run(t, config, { 'values.csv': csv });
  t.equal(result.total, 12);
  t.same(result.errors, {}, 'none refused as invalid_request');
  const by = (prefix: string) => target.seen.filter((r) => r.url.startsWith(prefix));
  const paths = by('/p/').map((r) => new URL(r.url, 'http://x'));
  t.same(
    paths.map((u) => decodeURIComponent(u.pathname.slice('/p/'.length))),
    VALUES,
    'one path segment each, decoded as sent',
  );
  t.same(
    paths.map((u) => u.searchParams.get('in')),
    VALUES,
    "in the url's own query",
  );
  const queries = by('/q?').map((r) => new URL(r.url, 'http://x').searchParams);
  t.same(
    queries.map((q) => [q.get('fixed'), q.get('v'), q.getAll('n')]),
    VALUES.map((v) => ['1', v, ['1', '2']]),
    "query: after the url's own query; a list repeats its name",
  );
  const forms = by('/f');
  t.same(
    forms.map((r) => new URLSearchParams(r.body.toString('utf8')).get('v')),
    VALUES,
    'form: fields',
  );
  t.ok(forms.every((r) => r.contentType === 'application/x-www-form-urlencoded'));
});

t.test('a JSON body: typed values keep their type, text is escaped', async (t) => {
  const target = await server(t);
  const config = `target: ${target.url}
concurrency: 1
requests: 2
feeder: { file: r.json }
endpoints:
  - { name: start, url: /start, extract: { id: $.id, quote: $.quote, on: $.on, tags: $.tags } }
  - name: send
    url: /json
    method: POST
    body:
      productId: "{{id}}"
      quote: "{{quote}}"
      text: 'q: {{quote}} #{{id}}'
      flags: ["{{on}}", "{{tags}}"]
      fed: { n: "{{n}}", s: "{{s}}" }
flows:
  - { name: all, steps: [start, send] }
`;
  await run(t, config, { 'r.json': '[{"n": 5, "s": "5"}]' });
  const bodies = target.seen.filter((r) => r.url === '/json');
  t.equal(bodies.length, 2);
  for (const received of bodies)
    t.same(JSON.parse(received.body.toString('utf8')), {
      productId: 1070,
      quote: 'say "hi"',
      text: 'q: say "hi" #1070',
      flags: [true, ['a']],
      fed: { n: 5, s: '5' },
    });
});

t.test('url from a variable: a Location path is requested; another host is not', async (t) => {
  const target = await server(t);
  const config = `target: ${target.url}
concurrency: 1
requests: 2
endpoints:
  - { name: start, url: /start, extract: { next: { header: location } } }
  - { name: next, url: "{{next}}" }
  - { name: away, url: "{{away}}" }
  - { name: base, url: "{{base}}/items", query: { a: 1 } }
flows:
  - { name: all, steps: [start, next, away, base] }
feeder: { file: f.csv }
`;
  const csv = `away,base\nhttp://127.0.0.2:${target.port}/x,${target.url}\n`;
  const result = await run(t, config, { 'f.csv': csv });
  t.same(result.unsent_errors, { url_not_allowed: 2 }, 'the other host: counted unsent');
  t.same(
    target.seen.map((r) => r.url),
    ['/start', '/login', '/items?a=1', '/start', '/login', '/items?a=1'],
  );
});

t.test('multipart: a field and a file, parsed by a real multipart parser', async (t) => {
  const target = await server(t);
  const photo = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
  const config = `target: ${target.url}
concurrency: 1
requests: 2
headers: { Content-Type: application/json }
endpoints:
  - name: upload
    url: /up
    method: POST
    multipart:
      title: 'photo {{$randomInt 7 7}}'
      photo: { file: img/photo.png, content_type: image/png }
`;
  await run(t, config, { img: { 'photo.png': photo } });
  const uploads = target.seen.filter((r) => r.url === '/up');
  t.equal(uploads.length, 2);
  for (const received of uploads) {
    t.match(received.contentType, /^multipart\/form-data; boundary=/);
    const form = await new Request('http://x/', {
      method: 'POST',
      body: received.body,
      headers: { 'content-type': received.contentType },
    }).formData();
    t.equal(form.get('title'), 'photo 7');
    const file = form.get('photo') as File;
    t.same([file.name, file.type], ['photo.png', 'image/png']);
    t.ok(Buffer.from(await file.arrayBuffer()).equals(photo), 'the file, byte for byte');
  }
});

/** Each bad input: its config lines after the target, and what the error must say. */
const BAD: readonly [string, string, RegExp][] = [
  [
    'body with form',
    '  - { url: /a, method: POST, body: x, form: { a: 1 } }\n',
    /load\.yaml:4:\d+: endpoints\[0\]\.form: expected one of body, form or multipart, got body and form/,
  ],
  [
    'form with multipart',
    '  - { url: /a, method: POST, form: { a: 1 }, multipart: { b: x } }\n',
    /load\.yaml:4:\d+: endpoints\[0\]\.multipart: expected one of body, form or multipart, got form and multipart/,
  ],
  [
    'a missing file',
    '  - url: /a\n    method: POST\n    multipart:\n      f: { file: nope.png }\n',
    /load\.yaml:7:\d+: endpoints\[0\]\.multipart\.f\.file: expected an existing multipart file, got "nope\.png": no such file/,
  ],
  [
    'a directory',
    '  - url: /a\n    method: POST\n    multipart:\n      f: { file: dir }\n',
    /load\.yaml:7:\d+: endpoints\[0\]\.multipart\.f\.file: expected a regular multipart file, got "dir": a directory/,
  ],
  [
    'a query value of another type',
    '  - url: /a\n    query: { q: { x: 1 } }\n',
    /load\.yaml:5:\d+: endpoints\[0\]\.query\.q: expected text, a number, a boolean or a list of them/,
  ],
];

t.test('validate refuses conflicts, missing files and bad values with file:line', async (t) => {
  for (const [name, endpoints, message] of BAD) {
    const dir = t.testdir({
      'load.yaml': `target: http://127.0.0.1:9\nrequests: 1\nendpoints:\n${endpoints}`,
      dir: {},
    });
    const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
    t.equal(result.code, 1, `${name}: exit 1`);
    t.match(result.stderr, message, name);
    t.notMatch(result.stderr, /\n\s+at /, `${name}: no stack`);
  }
});

t.test(
  'TypeScript: query, form, multipart, a Location path; form with a body throws',
  async (t) => {
    const target = await server(t);
    const scenario = `import { check, http } from 'barrage';
export default async function () {
  const start = await http.get('/start');
  await http.get(start.headers.location);
  await http.get('/q?fixed=1', { query: { v: 'A&B=C', n: [1, 2] } });
  await http.post('/f', undefined, { form: { v: 'product 1' } });
  await http.post('/up', undefined, {
    multipart: { title: 'café', photo: { data: 'abc', filename: 'a.txt', contentType: 'text/plain' } },
  });
  let refused = '';
  try {
    await http.post('/f', 'x', { form: { v: 1 } });
  } catch (error) {
    refused = (error as Error).message;
  }
  check(refused, { 'form with a body throws': (m) => m.includes('not a body and form') });
}
`;
    const dir = t.testdir({ 's.ts': scenario });
    const result = await runCli(
      ['run', '--scenario', 's.ts', '--target', target.url, '--requests', '1', '--json-output'],
      { cwd: dir },
    );
    t.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as { checks: { passes: number; fails: number } };
    t.same([printed.checks.passes, printed.checks.fails], [1, 0]);
    t.same(
      target.seen.map((r) => r.url),
      ['/start', '/login', '/q?fixed=1&v=A%26B%3DC&n=1&n=2', '/f', '/up'],
    );
    const [, , , form, upload] = target.seen;
    t.equal(form!.body.toString('utf8'), 'v=product+1');
    t.equal(form!.contentType, 'application/x-www-form-urlencoded');
    const parsed = await new Request('http://x/', {
      method: 'POST',
      body: upload!.body,
      headers: { 'content-type': upload!.contentType },
    }).formData();
    t.equal(parsed.get('title'), 'café');
    const file = parsed.get('photo') as File;
    t.same([file.name, file.type, await file.text()], ['a.txt', 'text/plain', 'abc']);
  },
);
