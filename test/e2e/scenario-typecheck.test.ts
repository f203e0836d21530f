// `barrage validate` and `barrage run` type-check a TypeScript scenario before any traffic
// (docs/scenarios.md, Type checking): the built CLI spawned as a user runs it, against a loopback
// target that counts what reaches it.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

/** A target that answers 200 and counts the requests it received. */
async function countingTarget(t: Test): Promise<{ url: string; count: () => number }> {
  let received = 0;
  const server = createServer((_req, res) => {
    received++;
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, count: () => received };
}

const TYPE_ERROR = `import { http } from 'barrage';
export default async function (): Promise<void> {
  const r = http.get('/x');
  if (r.status !== 200) throw new Error('down');
}
`;

const MISSING_AWAIT = `import { check, http } from 'barrage';
export default async function (): Promise<void> {
  http.get('/x');
  check(1, { one: (v) => v === 1 });
}
`;

const PROPERTY = "Property 'status' does not exist on type 'Promise<Response>'";

for (const command of ['validate', 'run'] as const) {
  t.test(`${command} refuses a type error with file:line:col, sending nothing`, async (t) => {
    const target = await countingTarget(t);
    const dir = t.testdir({ 'load.ts': TYPE_ERROR });
    const r = await runCli([command, '--scenario', 'load.ts', '--target', target.url, '-n', '2'], {
      cwd: dir,
      typecheck: true,
    });
    t.equal(r.code, 1, r.stderr);
    t.match(r.stderr, `error: load.ts:4:9: expected a scenario that type-checks, got ${PROPERTY}`);
    t.match(r.stderr, 'nothing was sent');
    t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
    t.equal(target.count(), 0, 'no request reached the target');
  });

  t.test(`${command} refuses a call not awaited, with its line`, async (t) => {
    const target = await countingTarget(t);
    const dir = t.testdir({ 'load.ts': MISSING_AWAIT });
    const r = await runCli([command, '--scenario', 'load.ts', '--target', target.url, '-n', '2'], {
      cwd: dir,
      typecheck: true,
    });
    t.equal(r.code, 1, r.stderr);
    t.match(r.stderr, 'error: load.ts:3:3: expected every promise awaited');
    t.match(r.stderr, "http.get('/x'), not awaited");
    t.match(r.stderr, "write await http.get('/x')");
    t.equal(target.count(), 0, 'no request reached the target');
  });
}

t.test('--no-typecheck lets both through', async (t) => {
  const target = await countingTarget(t);
  const dir = t.testdir({ 'typed.ts': TYPE_ERROR, 'floating.ts': MISSING_AWAIT });
  for (const file of ['typed.ts', 'floating.ts']) {
    const args = ['--scenario', file, '--target', target.url, '--no-typecheck'];
    const validated = await runCli(['validate', ...args], { cwd: dir });
    t.equal(validated.code, 0, validated.stderr);
    t.match(validated.stdout, 'Configuration is valid');
  }
  const through = await runCli(
    ['run', '--scenario', 'floating.ts', '--target', target.url, '-n', '2', '-c', '1'].concat(
      '--no-typecheck',
      '--json-output',
    ),
    { cwd: dir },
  );
  // Its requests are never awaited, yet they are sent: the host awaits them before each iteration
  // ends (docs/scenarios.md, "Calls not awaited"), so they are counted as the target counted them.
  t.equal(through.code, 0, through.stderr);
  t.notMatch(through.stderr, /type-checks|not awaited/);
  const result = JSON.parse(through.stdout) as { total: number; iterations_failed: number };
  t.equal(target.count(), 2, 'each iteration sent its request');
  t.equal(result.total, target.count(), "barrage's requests are the target's");
  t.equal(result.iterations_failed, 0);
});

t.test('a type error in an imported sibling file names that file', async (t) => {
  const dir = t.testdir({
    scenario: {
      'load.ts': `import { http } from 'barrage';
import { pageName } from './pages';
export default async function (): Promise<void> {
  await http.get(pageName(1));
}
`,
      'pages.ts': `export function pageName(n: number): string {
  return n;
}
`,
    },
  });
  const r = await runCli(
    ['validate', '--scenario', 'scenario/load.ts', '--target', 'http://127.0.0.1:9'],
    { cwd: dir, typecheck: true },
  );
  t.equal(r.code, 1, r.stderr);
  t.match(
    r.stderr,
    "error: scenario/pages.ts:2:3: expected a scenario that type-checks, got Type 'number' is not assignable to type 'string'.",
  );
  t.notMatch(r.stderr, 'scenario/load.ts:');
});
