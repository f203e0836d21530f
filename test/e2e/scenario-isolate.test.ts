// What a TypeScript scenario's isolate must contain, on the Node it runs on (isolated-vm's binary
// differs by Node, so .ci/run repeats this file on each): every known way out of the sandbox, throws
// and infinite loops, an await that never settles, unbounded allocation, and Ctrl+C reaching the
// scenario's child process with barrage's whole process group.
import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { BIN } from '../helpers/run-cli.js';
import { FIXTURES, json, runFixture, target } from '../helpers/scripted-run.js';

t.test('each escape attempt is refused', async (t) => {
  const server = await target(t);
  const result = await runFixture('escape.ts', server, 1, 1);
  t.equal(result.code, 0, result.stderr);
  const checks = json(result).checks;
  t.ok(checks !== undefined);
  for (const [name, count] of Object.entries(checks?.by_name ?? {}))
    t.same(count, { passes: 1, fails: 0 }, name);
  t.equal(Object.keys(checks?.by_name ?? {}).length, 13, 'every attempt ran');
  t.equal(json(result).successes, 1, 'the iteration went on to its request');
});

t.test(
  'throws, rejections never awaited and infinite loops are counted; the run carries on',
  async (t) => {
    const server = await target(t);
    const result = await runFixture('misbehave.ts', server, 8, 1, '--timeout', '300ms');
    t.equal(result.code, 0, result.stderr);
    const r = json(result);
    t.equal(r.status_codes['200'], 8, 'every iteration sent its request');
    t.same(r.errors, {}, 'failed iterations are not requests');
    t.equal(r.total, 8, 'the 8 requests sent, no more');
    t.equal(r.iterations_failed, 6);
    t.same(r.iteration_errors, { script_error: 4, script_timeout: 2 });
    t.notOk(
      r.endpoints.some((e) => e.name === '(iteration)'),
      'no pseudo-request line',
    );
    t.match(
      result.stderr,
      /script_error: .*misbehave\.ts:7:\d+: TypeError: thrown on purpose/,
      'the .ts position',
    );
    t.match(result.stderr, /script_timeout/);
  },
);

t.test(
  'misbehaving iterations of several virtual users, sharing batches, are contained',
  async (t) => {
    const server = await target(t);
    const result = await runFixture('misbehave.ts', server, 16, 4, '--timeout', '300ms');
    t.equal(result.code, 0, result.stderr);
    const r = json(result);
    // A cut batch also cuts the other iterations it carried (before or after their request), and
    // rejections never handled that surface in one batch count once: so at least the four loops
    // and the four throws are counted, and each iteration either sent its request or was cut.
    const cut = r.iteration_errors.script_timeout ?? 0;
    const thrown = r.iteration_errors.script_error ?? 0;
    t.ok(cut >= 4, `script_timeout ${cut}`);
    t.ok(thrown >= 4, `script_error ${thrown}`);
    // Requests in flight while a loop held the event loop may time out: sent counts them too.
    const sent = r.endpoints.find((e) => e.name === 'GET /json')?.requests ?? 0;
    t.ok(sent + cut >= 16, `${sent} sent, ${cut} cut: no iteration vanished`);
  },
);

t.test('an await that never settles is cut by the host watchdog', async (t) => {
  const server = await target(t);
  const result = await runFixture('awaits.ts', server, 3, 1, '--timeout', '300ms');
  t.equal(result.code, 0, result.stderr);
  t.same(json(result).iteration_errors, { script_timeout: 1 });
  t.same(json(result).errors, {});
  t.equal(json(result).successes, 3);
});

t.test('unbounded allocation is contained: the run ends cleanly with its report', async (t) => {
  const server = await target(t);
  const result = await runFixture('memory.ts', server, 2, 1, '--timeout', '30s');
  // A long CPU limit: on a loaded machine the allocation loop once ran past 5 s before the heap
  // filled (script_timeout). Either the isolate is disposed (script_memory: the run stops as
  // failed, and the second iteration never begins) or V8 aborts the child (a lost segment);
  // exit 1 either way, never a crash of barrage itself, and the report is printed either way.
  t.equal(result.code, 1);
  const r = json(result);
  if (r.iteration_errors.script_memory === 1)
    t.match(
      result.stderr,
      /the run stopped: the scenario's isolate passed its memory limit \(129 MB for 1 virtual users\); its iterations failed and the run stopped/,
    );
  else t.match(result.stderr, /was lost/);
});

t.test('Ctrl+C reaching the whole process group stops a scripted run cleanly', async (t) => {
  const server = await target(t);
  const child = spawn(
    BIN,
    [
      '--no-typecheck',
      '--scenario',
      join(FIXTURES, 'flow.ts'),
      '--target',
      server.url,
      '-d',
      '20s',
      '-c',
      '1',
      '--json-output',
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // Signal the group once requests flow, as a terminal does.
  await eventually(() => server.stats().total >= 3);
  process.kill(-child.pid!, 'SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 0, stderr);
  const r = JSON.parse(stdout) as { interrupted: boolean; total: number; failures: number };
  t.equal(r.interrupted, true);
  t.ok(r.total > 0);
  t.equal(r.failures, 0);
  t.notMatch(stderr, /was lost/);
});
