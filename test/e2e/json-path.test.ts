// JSONPath as users run it (issue 23): paths that crashed a run are refused by `barrage validate`
// at their file and line, and RFC 9535 paths that used to read nothing now extract the RFC's value
// from a real server, in YAML and in a scenario's res.json(path).
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

const BODY = JSON.stringify({
  a: 'first',
  b: 'second',
  items: [{ id: 'i1' }, { id: 'i2' }, { id: 'i3' }],
  'access-token': 'tok',
});

/** A server on 127.0.0.1 answering /data with BODY and recording every other path's query. */
async function target(t: Test): Promise<{ url: string; seen: URLSearchParams[] }> {
  const seen: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/data') seen.push(url.searchParams);
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end(url.pathname === '/data' ? BODY : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

for (const [path, message] of [
  ['$.items[0,?(@.id)]', /filter expressions \(\[\?…\]\) are not supported/],
  ['$.items[@.id]', /"@" belongs in a filter expression .* select by name, index or slice/],
] as const) {
  t.test(`barrage validate refuses ${path} at its line, without a stack`, async (t) => {
    const dir = t.testdir({
      'load.yaml': `target: http://127.0.0.1:9\nendpoints:\n  - url: /data\n    extract:\n      id: "${path}"\n`,
    });
    const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
    t.equal(result.code, 1);
    t.equal(result.stdout, '');
    t.match(
      result.stderr,
      /load\.yaml:5:\d+: endpoints\[0\]\.extract\.id: expected a JSONPath such as \$\.items\[0\]\.id, got /,
    );
    t.match(result.stderr, message);
    t.notMatch(result.stderr, /\n\s+at |internal error/, 'no stack trace, no internal error');
  });
}

t.test("$['a','b'], $[-1] and $['access-token'] extract the RFC's values", async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'load.yaml': [
      `target: ${server.url}`,
      'requests: 2',
      'concurrency: 1',
      'flows: [{ name: f, steps: [data, use] }]',
      'endpoints:',
      '  - name: data',
      '    url: /data',
      '    extract:',
      `      pair: "$['a','b']"`,
      '      last: $.items[-1].id',
      `      token: "$ ['access-token']"`,
      '  - { name: use, url: "/use?pair={{pair}}&last={{last}}&token={{token}}" }',
      '',
    ].join('\n'),
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.equal(server.seen.length, 2, 'each flow sent its second request');
  t.same(
    server.seen.map((query) => [query.get('pair'), query.get('last'), query.get('token')]),
    [
      ['first', 'i3', 'tok'],
      ['first', 'i3', 'tok'],
    ],
  );
});

t.test("a scenario's res.json(path): RFC 9535 values, a refused path throws", async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'paths.ts': [
      "import { check, http } from 'barrage';",
      'export default async function (): Promise<void> {',
      "  const r = await http.get('/data');",
      '  let refused = "";',
      '  try {',
      "    r.json('$.items[@.id]');",
      '  } catch (error) {',
      '    refused = (error as Error).message;',
      '  }',
      '  check(r, {',
      `    'last item': (res) => res.json('$.items[-1].id') === 'i3',`,
      `    'first of a list': (res) => res.json("$['b','a']") === 'second',`,
      "    'a filter-like path throws a clear Error': () => refused.includes('belongs in a filter expression'),",
      '  });',
      '}',
      '',
    ].join('\n'),
  });
  const result = await runCli(
    [
      'run',
      '--scenario',
      'paths.ts',
      '--target',
      server.url,
      '-n',
      '2',
      '-c',
      '1',
      '--json-output',
    ],
    { cwd: dir },
  );
  t.equal(result.code, 0, result.stderr);
  const printed = JSON.parse(result.stdout) as {
    checks?: { by_name: Record<string, { passes: number; fails: number }> };
    iteration_errors: Record<string, number>;
  };
  t.same(printed.iteration_errors, {}, 'no iteration failed');
  for (const name of ['last item', 'first of a list', 'a filter-like path throws a clear Error'])
    t.same(printed.checks?.by_name[name], { passes: 2, fails: 0 }, name);
});
