// Long text costs linear time, never a stall: a 256 K-letter endpoint name through `validate`
// (its view and its issues are redacted), and a scenario throwing a 1 MB message each iteration
// (the message is cut to a few KiB before it is redacted and shown). Bounds here are the test's
// own safety nets; what is asserted is that each run ended by itself, as asked.
import t from 'tap';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

t.test('validate with a 256 K-letter endpoint name', async (t) => {
  const name = 'a'.repeat(256 * 1024);
  const dir = t.testdir({
    'ok.yaml': `target: http://127.0.0.1:9\nendpoints:\n  - { name: ${name}, url: / }\n`,
    'bad.yaml': `target: http://127.0.0.1:9\nendpoints:\n  - { name: ${name}, url: /, timeout: ${name} }\n`,
  });
  const ok = await runCli(['validate', 'ok.yaml'], { cwd: dir, killAfterMs: 120_000 });
  t.equal(ok.signal, null, 'ended by itself');
  t.equal(ok.code, 0, ok.stderr.slice(0, 500));
  t.match(ok.stdout, /aaaaaaaaaaaaaaaa/, 'the plan view shows the endpoint');
  const bad = await runCli(['validate', 'bad.yaml'], { cwd: dir, killAfterMs: 120_000 });
  t.equal(bad.signal, null, 'ended by itself');
  t.equal(bad.code, 1);
  t.match(bad.stderr, /timeout/);
  t.ok(bad.stderr.length < 20_000, 'the issue quotes a few KiB of the value');
});

t.test('a scenario throwing a 1 MB message each iteration', async (t) => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const dir = t.testdir({
    'throws.ts': `import { http } from 'barrage';\nexport default async function (): Promise<void> {\n  await http.get('/');\n  throw new Error('a'.repeat(1_000_000));\n}\n`,
  });
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const result = await runCli(
    ['--scenario', 'throws.ts', '--target', url, '-n', '4', '-c', '1', '--json', 'r.json'],
    { cwd: dir, killAfterMs: 120_000 },
  );
  t.equal(result.signal, null, 'ended by itself');
  t.equal(result.code, 1, 'every iteration failed: the run proved nothing, and said so');
  t.match(result.stderr, 'barrage: the run failed: every one of its 4 iterations failed');
  const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    iteration_errors: Record<string, number>;
  };
  t.same(json.iteration_errors, { script_error: 4 });
  t.equal(requests, 4, 'each iteration sent its request');
  t.match(result.stderr, /script_error: .*Error: aaaa.*more characters not shown/);
  t.ok(result.stderr.length < 20_000, 'a few KiB of the message shown');
});
