// `target: ${TARGET}` (a host CI sets) is no secret: validate and the reports show it; only a
// password (URL userinfo) in it is hidden. Other values built from ${NAME} stay hidden.
import t from 'tap';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

const CONFIG =
  'target: ${TARGET}\nheaders: { X-Trace: "${TRACE}" }\nendpoints:\n  - { name: home, url: / }\n';

t.test('validate shows a target from the environment, hides its password', async (t) => {
  const dir = t.testdir({ 'load.yaml': CONFIG });
  const plain = await runCli(['validate', 'load.yaml'], {
    cwd: dir,
    env: { TARGET: 'http://127.0.0.1:9', TRACE: 'trace-value-1234' },
  });
  t.equal(plain.code, 0, plain.stderr);
  t.match(plain.stdout, 'http://127.0.0.1:9', 'the target is shown');
  t.notMatch(plain.stdout, 'trace-value-1234', 'a header from the environment stays hidden');
  const withPassword = await runCli(['validate', 'load.yaml'], {
    cwd: dir,
    env: { TARGET: 'http://user:s3cret-pass@127.0.0.1:9', TRACE: 'trace-value-1234' },
  });
  t.equal(withPassword.code, 0, withPassword.stderr);
  t.match(withPassword.stdout, 'http://[redacted]@127.0.0.1:9');
  t.notMatch(withPassword.stdout + withPassword.stderr, /s3cret-pass|user:/);
});

t.test('a run’s HTML report shows the target from the environment', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const target = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const dir = t.testdir({ 'load.yaml': `${CONFIG}requests: 2\n` });
  const result = await runCli(['run', 'load.yaml', '--html', 'r.html'], {
    cwd: dir,
    env: { TARGET: target, TRACE: 'trace-value-1234' },
  });
  t.equal(result.code, 0, result.stderr);
  const text = readFileSync(join(dir, 'r.html'), 'utf8');
  t.match(text, target, 'the target appears as it is');
  t.notMatch(text, 'trace-value-1234');
});
