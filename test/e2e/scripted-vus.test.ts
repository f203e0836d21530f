// Scripted virtual users by the thousand (issue 47): the isolate's heap is sized to the
// concurrency asked for, so 1,000 virtual users start and finish with no overrun; and a stop
// signal while an isolate hoards memory ends the run within its grace, with its report (an
// overrun's own failure: scenario-isolate.test.ts, "unbounded allocation is contained").
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES, json, runFixture, target } from '../helpers/scripted-run.js';

/** A target that answers every request after `delayMs`, counting what it saw. */
async function slowTarget(t: Test, delayMs: number): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  const server = createServer((req, res) => {
    seen++;
    req.resume();
    setTimeout(() => res.end('{"ok":true}'), delayMs);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => seen };
}

t.test("validate says the isolate's heap limit for the virtual users asked", async (t) => {
  const scenario = join(FIXTURES, 'one-get.ts');
  const result = await runInProcess([
    'validate',
    '--scenario',
    scenario,
    '--target',
    'http://127.0.0.1:9',
    '-c',
    '1000',
    '--no-typecheck',
  ]);
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    /isolate {5}heap limit 128 MB \+ 0\.5 MB a virtual user: 628 MB for 1000 on one thread/,
  );
});

t.test(
  '1,000 scripted virtual users against a 1 s target: no overrun, every request counted',
  async (t) => {
    const server = await slowTarget(t, 1000);
    const result = await runFixture('one-get.ts', server, 1000, 1000, '--threads', '1');
    t.equal(result.code, 0, result.stderr);
    const r = json(result) as ReturnType<typeof json> & { vus_max: number; iterations: number };
    t.notMatch(result.stderr, /script_memory/, 'the isolate never passed its limit');
    t.same(r.iteration_errors, {}, 'no iteration failed');
    t.equal(r.vus_max, 1000, 'every virtual user was allocated');
    t.equal(r.iterations, 1000, 'the plan: 1,000 iterations');
    t.equal(r.total, 1000, 'one request an iteration');
    t.equal(server.seen(), r.total, "the server's count is barrage's");
    t.equal(r.successes, 1000);
  },
);

t.test(
  'SIGTERM while the isolate hoards memory ends the run within its grace, with a report',
  async (t) => {
    const server = await target(t);
    const result = await runCli(
      [
        'run',
        '--scenario',
        join(FIXTURES, 'hoard.ts'),
        '--target',
        server.url,
        '-c',
        '8',
        '-d',
        '60s',
        '--stop-grace',
        '2s',
        '--json-output',
      ],
      {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (server.stats().total < 8) return;
            clearInterval(poll);
            child.kill('SIGTERM');
          }, 20);
          child.on('exit', () => clearInterval(poll));
        },
        killAfterMs: 30_000,
      },
    );
    t.equal(result.signal, null, 'it exited by itself, not by the safety net');
    const r = JSON.parse(result.stdout) as { interrupted: boolean; total: number };
    t.ok(r.total >= 8, `the requests the server saw are in the report (${r.total})`);
    t.equal(r.interrupted, true);
    // Its iterations never end: the grace's end cuts them (130), unless the overrun failed the
    // run first (1). Either way a report, and never a hang.
    if (result.code === 130) t.match(result.stderr, /the stop grace \(2s\) ended/);
    else {
      t.equal(result.code, 1, result.stderr);
      t.match(result.stderr, /passed its memory limit/);
    }
  },
);
