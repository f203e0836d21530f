// A login form's CSRF token read by css and regex extractors: the built CLI, spawned, against a
// node:http server (test/helpers/form-target.ts) that hands out fresh tokens with each form and
// counts the logins that bring back tokens it issued.
import t from 'tap';
import { formTarget } from '../helpers/form-target.js';
import { runCli } from '../helpers/run-cli.js';

t.test('the token of each form is sent back by the login that follows it', async (t) => {
  const target = await formTarget(t);
  const config = [
    `target: ${target.url}`,
    'requests: 40',
    'concurrency: 4',
    'flows: [{ name: sign-in, steps: [form, login] }]',
    'endpoints:',
    '  - name: form',
    '    url: /form',
    '    extract:',
    "      csrf: { css: 'form input[name=_csrf]', attr: value }",
    `      meta: { regex: '<meta name="csrf-token" content="([0-9a-f]+)">' }`,
    '  - name: login',
    '    method: POST',
    '    url: /login',
    '    headers: { Content-Type: application/x-www-form-urlencoded, X-CSRF-Token: "{{meta}}" }',
    '    body: "user=ada&_csrf={{csrf}}"',
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': `${config}\n` });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    failures: number;
    endpoints: { name: string; requests: number }[];
  };
  const logins = report.endpoints.find((e) => e.name === 'login')?.requests;
  t.equal(logins, 40, 'a flow per iteration');
  t.equal(report.failures, 0);
  t.equal(target.good(), logins, 'every login carried the token of its own form');
  t.equal(target.bad(), 0);
});
