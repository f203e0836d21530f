// r.html() and r.match() in a TypeScript scenario, run by the built CLI (spawned) against the
// sign-in form of test/helpers/form-target.ts: every check passes, every login carries the tokens
// of its own page.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { formTarget } from '../helpers/form-target.js';
import { runCli } from '../helpers/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/scenarios/', import.meta.url));

const CHECKS = [
  'html() finds the hidden input, attr() reads it in any case',
  'attr() of an attribute the element lacks is undefined',
  'text is the text content',
  'html() finds nothing: null',
  'match() without a group gives the whole match',
  'match() takes a RegExp, its flags but not g',
  'match() finds nothing: undefined',
  'an invalid selector throws a clear Error',
  'an invalid pattern throws a clear Error',
  'the login is accepted',
];

t.test('a scenario signs in with the tokens html() and match() read', async (t) => {
  const target = await formTarget(t);
  const result = await runCli([
    'run',
    '--scenario',
    join(FIXTURES, 'html-form.ts'),
    '--target',
    target.url,
    '-n',
    '12',
    '-c',
    '3',
    '--json-output',
  ]);
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    failures: number;
    endpoints: { name: string; requests: number }[];
    checks: { by_name: Record<string, { passes: number; fails: number }> };
  };
  t.same(
    report.checks.by_name,
    Object.fromEntries(CHECKS.map((name) => [name, { passes: 12, fails: 0 }])),
  );
  t.equal(report.endpoints.find((e) => e.name === 'login')?.requests, 12);
  t.equal(report.failures, 0);
  t.equal(target.good(), 12, 'every login carried the tokens of its own page');
  t.equal(target.bad(), 0);
});
