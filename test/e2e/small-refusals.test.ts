// Smaller bounds of issue 44, each as a user meets it: a flag's negative value read as a flag
// says so and how to write it; Content-Encoding layers are decoded at most five deep (a target
// naming gzip 3,000 times held a thread for seconds a response), more fail as decode_error.
import t from 'tap';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { runInProcess } from '../helpers/in-process-cli.js';

t.test('-c -1: the value read as a flag, and how to write it', async (t) => {
  const result = await runInProcess(['--target', 'http://127.0.0.1:9', '-c', '-1', '-n', '1']);
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    'flag -c for "barrage run": expected a value, got "-1", read as a flag (a negative value is written -c=-1)',
  );
  t.notMatch(result.stderr, /got none/);
});

t.test('gzip five layers deep is decoded, six or 1,000 are a decode_error', async (t) => {
  // An extractor reads the body: only a body something reads is decoded (issue 47).
  const wrapped = (layers: number) => {
    let body = Buffer.from('{"ok":true}');
    for (let i = 0; i < layers; i++) body = gzipSync(body);
    return body;
  };
  const server = createServer((req, res) => {
    const layers = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('layers'));
    res.setHeader('content-encoding', Array(layers).fill('gzip').join(', '));
    res.end(wrapped(Math.min(layers, 50)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  for (const [layers, errors] of [
    [5, {}],
    [6, { decode_error: 2 }],
    [1000, { decode_error: 2 }],
  ] as const) {
    const config = [
      `target: ${url}`,
      'requests: 2',
      'concurrency: 1',
      'endpoints:',
      `  - { url: "/?layers=${layers}", extract: { ok: "$.ok" } }`,
    ].join('\n');
    const dir = t.testdir({ 'load.yaml': config });
    const result = await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir });
    const json = JSON.parse(result.stdout) as { total: number; errors: Record<string, number> };
    t.equal(json.total, 2, `${layers} layers: both requests`);
    t.same(json.errors, errors, `${layers} layers`);
  }
});

t.test('insecure: true prints the documented warning', async (t) => {
  const dir = t.testdir({
    'load.yaml': 'target: https://127.0.0.1:9\ninsecure: true\nendpoints:\n  - { url: / }\n',
    'safe.yaml': 'target: https://127.0.0.1:9\nendpoints:\n  - { url: / }\n',
  });
  const insecure = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
  t.equal(insecure.code, 0, insecure.stderr);
  t.match(
    insecure.stderr,
    /warning: load\.yaml:2:\d+: insecure: TLS certificates are not verified/,
  );
  const safe = await runInProcess(['validate', 'safe.yaml'], { cwd: dir });
  t.notMatch(safe.stderr, /not verified/, 'no warning without insecure');
});

t.test(
  'a scripted request redirected to a forbidden host gets error url_not_allowed',
  async (t) => {
    const server = createServer((_req, res) => {
      res.writeHead(302, { location: 'http://forbidden.example/' });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const dir = t.testdir({
      'load.ts': `import { http } from 'barrage';\nexport default async function (): Promise<void> {\n  const res = await http.get('/go');\n  if (res.status !== 302 || res.error !== 'url_not_allowed')\n    throw new Error(\`status \${res.status}, error \${String(res.error)}\`);\n}\n`,
    });
    const result = await runInProcess(
      ['--scenario', 'load.ts', '--target', url, '-n', '2', '--json-output'],
      {
        cwd: dir,
      },
    );
    t.equal(result.code, 1, 'nothing succeeded: the run proved nothing');
    const json = JSON.parse(result.stdout) as {
      iteration_errors: Record<string, number>;
      errors: Record<string, number>;
    };
    t.same(json.iteration_errors, {}, 'the scenario saw url_not_allowed');
    t.same(json.errors, { url_not_allowed: 2 }, 'as the report counts it');
  },
);

t.test('a threshold on an unknown endpoint is refused in the single-request form', async (t) => {
  const target = 'http://127.0.0.1:9';
  const refused = await runInProcess([
    'validate',
    '--target',
    target,
    '--threshold',
    'http_req_duration{endpoint=nope}:p95 < 100',
  ]);
  t.equal(refused.code, 1);
  t.match(
    refused.stderr,
    `--threshold: thresholds[0]: expected an endpoint name: GET ${target}, got "nope"`,
  );
  const known = await runInProcess([
    'validate',
    '--target',
    target,
    '--threshold',
    `http_req_duration{endpoint=GET ${target}}:p95 < 100`,
  ]);
  t.equal(known.code, 0, known.stderr);
});
