// The report files of a real (short, in-process) run: HTML, JUnit and Markdown written where asked,
// the Markdown summary appended to $GITHUB_STEP_SUMMARY, secrets absent from the HTML, and an
// unwritable file named in the error while the others are still written.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { runInProcess } from '../helpers/in-process-cli.js';

let server: TargetServer;
t.before(async () => {
  // The client secret the config below sends, so the run works once oauth2 fetches tokens too.
  server = await startTargetServer({ clientSecret: 'client-secret-789' });
});
t.teardown(() => server.close());

/** A short run's arguments; the target comes from `--target` unless a config file gives it. */
function runArgs(...extra: string[]): string[] {
  return [
    'run',
    '-n',
    '20',
    '-c',
    '2',
    '--no-dashboard',
    '--quiet',
    '--threshold',
    'http_req_duration:p99 < 5000',
    ...extra,
  ];
}

function target(): string[] {
  return ['--target', `${server.url}/json`];
}

t.test('$GITHUB_STEP_SUMMARY gets the Markdown summary appended, run after run', async (t) => {
  const dir = t.testdir({ 'summary.md': '# Earlier step\n\n' });
  const env = { GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
  for (let i = 0; i < 2; i++) {
    const result = await runInProcess(runArgs(...target()), { cwd: dir, env });
    t.equal(result.code, 0, result.stderr);
  }
  const text = readFileSync(join(dir, 'summary.md'), 'utf8');
  t.ok(
    text.startsWith('# Earlier step\n\n## ✅ barrage: passed: 1 of 1 thresholds met\n'),
    'kept, then appended',
  );
  t.equal(text.match(/^## ✅ barrage: passed/gm)?.length, 2, 'one summary per run');
  t.match(text, '| `http_req_duration:p99 < 5000` |');
});

t.test('an empty $GITHUB_STEP_SUMMARY is ignored', async (t) => {
  const dir = t.testdir();
  const result = await runInProcess(runArgs(...target()), {
    cwd: dir,
    env: { GITHUB_STEP_SUMMARY: '' },
  });
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stderr, '');
});

t.test('--html, --junit and --summary-md write their files; secrets stay out', async (t) => {
  const config = [
    `target: ${server.url}`,
    'headers:',
    '  Authorization: Bearer header-secret-token-123',
    '  Cookie: sid=cookie-secret-456',
    'auth:',
    '  type: oauth2',
    `  token_url: ${server.url}/oauth/token`,
    '  client_id: barrage-demo',
    '  client_secret: client-secret-789',
    'endpoints:',
    '  - name: catalog',
    '    url: /json',
    '    headers: { X-Api-Key: "${API_KEY}" }',
    '',
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': config });
  const result = await runInProcess(
    runArgs(
      'load.yaml',
      '--html',
      'out/report.html',
      '--junit',
      'out/junit.xml',
      '--summary-md',
      'out/summary.md',
    ),
    { cwd: dir, env: { API_KEY: 'env-secret-000' } },
  );
  t.equal(result.code, 0, result.stderr);
  const html = readFileSync(join(dir, 'out/report.html'), 'utf8');
  for (const secret of [
    'header-secret-token-123',
    'cookie-secret-456',
    'client-secret-789',
    'env-secret-000',
  ])
    t.notMatch(html + result.stdout + result.stderr, secret, `${secret} is not shown`);
  t.match(html, /Authorization: &quot;\[redacted\]&quot;/, 'the header is listed, redacted');
  t.match(html, /client_secret: &quot;\[redacted\]&quot;/);
  t.match(html, /<td class="name">catalog<\/td><td class="num">20<\/td>/, 'the run is in it');
  t.match(
    readFileSync(join(dir, 'out/junit.xml'), 'utf8'),
    /<testsuite name="barrage thresholds" tests="1" failures="0"/,
  );
  t.match(readFileSync(join(dir, 'out/summary.md'), 'utf8'), /^## ✅ barrage: passed/);
});

t.test('a report path that is a directory is refused before the run; exit 1', async (t) => {
  const dir = t.testdir();
  mkdirSync(join(dir, 'taken.html'));
  const result = await runInProcess(
    runArgs(
      ...target(),
      '--html',
      'taken.html',
      '--junit',
      'junit.xml',
      '--summary-md',
      'summary.md',
    ),
    { cwd: dir },
  );
  t.equal(result.code, 1);
  t.match(result.stderr, /--html: .*got "taken\.html": a directory \(nothing was sent\)/);
  t.notOk(existsSync(join(dir, 'junit.xml')), 'no run, so no other report either');
});
