// `?api_key=` in an endpoint's url: docs name api_key a secret, so its value is hidden in
// validate, the HTML report and the raw result, while the target still receives it.
import t from 'tap';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'k-secret-12345678';

t.test('an api_key in a url is sent, never shown', async (t) => {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(new URL(req.url ?? '/', 'http://x').searchParams.get('api_key') ?? '');
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const dir = t.testdir({
    'load.yaml': `target: ${url}\nrequests: 2\nendpoints:\n  - { name: search, url: "/search?q=shoes&api_key=${KEY}" }\n`,
  });
  const validate = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(validate.code, 0, validate.stderr);
  t.match(validate.stdout, 'api_key=[redacted]');
  const run = await runCli(['run', 'load.yaml', '--html', 'r.html', '--raw', 'r.raw'], {
    cwd: dir,
  });
  t.equal(run.code, 0, run.stderr);
  t.same(keys, [KEY, KEY], 'the target received the key');
  const shown = [
    validate.stdout,
    validate.stderr,
    run.stdout,
    run.stderr,
    readFileSync(join(dir, 'r.html'), 'utf8'),
    readFileSync(join(dir, 'r.raw'), 'utf8'),
  ].join('\n');
  t.notMatch(shown, KEY, 'the key is in no output');
});
