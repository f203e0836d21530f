/**
 * Without a terminal (stdout a pipe, as in CI logs) the spawned CLI prints a plain progress line
 * on stderr every 5 s of run time, never an escape code; --quiet prints none; --json-output keeps
 * stdout to the JSON result.
 */
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runCli } from '../helpers/run-cli.js';

const LINE =
  /^barrage: 0:0[5-6] elapsed, \d+\.\d req\/s, p95 \d+\.\d\d ms, 0\.00% errors \(\d+ requests, 0 failed\)$/m;

t.test('progress lines on stderr when stdout is not a terminal', async (t) => {
  const server = await startTargetServer({ port: 0 });
  t.teardown(() => server.close());
  const argv = ['run', '--target', `${server.url}/json`, '-r', '40', '-c', '2', '-d', '6s'];
  // Three runs at once: 40 requests/s each is light, and the 6 s are spent once.
  const [plain, quiet, json] = await Promise.all([
    runCli(argv),
    runCli([...argv, '--quiet']),
    runCli([...argv, '--json-output'], { env: { CI: 'true' } }),
  ]);

  t.equal(plain.code, 0);
  t.match(plain.stderr, LINE, 'a progress line at 5 s');
  t.equal(plain.stderr.match(/^barrage: .* elapsed/gm)?.length, 1, 'one line in a 6 s run');
  t.notOk(plain.stderr.includes('\u001b'), 'no escape codes on stderr');
  t.notOk(plain.stdout.includes('\u001b'), 'no escape codes on stdout');
  t.match(plain.stdout, /^--- Load Test Results ---\n/, 'the report, and only it, on stdout');

  t.equal(quiet.code, 0);
  t.notMatch(quiet.stderr, /elapsed/, '--quiet: no progress lines');
  t.match(quiet.stdout, /^--- Load Test Results ---\n/);

  t.equal(json.code, 0);
  t.match(json.stderr, LINE, 'progress lines stay on stderr with --json-output');
  t.equal((JSON.parse(json.stdout) as { total: number }).total > 0, true, 'stdout is the JSON');
});
