// Once a run's time is up or it is stopped, what is still under way gets the run's timeout (and a
// second) to end, then it is cut as a hard stop cuts it (run-segment.ts, "Grace"). Each run here
// holds on past its end in one way a user could write — a year-long retry backoff, a scenario's
// hour-long sleep, a scenario looping on requests for ever — and must end by itself, with its
// report. The safety net kills after SAFETY_MS; a run that needed it fails the test.
import t, { type Test } from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { eventually } from '../helpers/eventually.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

const SAFETY_MS = 60_000;

async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

/** A configuration whose every request fails with 503 and waits most of a year to retry. */
function backoffForAYear(server: TargetServer, bounds: readonly string[]): string {
  return [
    `target: ${server.url}/status/503`,
    ...bounds,
    'timeout: 1s',
    'retry: { max_attempts: 2, backoff: 8000h, max_backoff: 8000h, jitter: 0 }',
    '',
  ].join('\n');
}

/** The run ended by itself (not the safety net's SIGKILL) and printed its JSON report. */
function endedByItself(t: Test, result: SpawnResult): JsonResult {
  t.equal(result.signal, null, 'ended by itself');
  t.not(result.code, null);
  return JSON.parse(result.stdout) as JsonResult;
}

t.test('a year-long retry backoff does not hold a timed run past its grace', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'retry.yaml': backoffForAYear(server, ['duration: 1s', 'concurrency: 2']),
  });
  const result = await runCli(['run', '--config', 'retry.yaml', '--json-output'], {
    cwd: dir,
    killAfterMs: SAFETY_MS,
  });
  const report = endedByItself(t, result);
  t.equal(report.retries, 0, 'no retry was sent');
  t.equal(server.stats().total, 2, 'one attempt per virtual user');
});

t.test('a graceful stop during a backoff ends the run after the grace', async (t) => {
  const server = await target(t);
  const dir = t.testdir({ 'retry.yaml': backoffForAYear(server, ['requests: 1']) });
  const result = await runCli(['run', '--config', 'retry.yaml', '--json-output'], {
    cwd: dir,
    killAfterMs: SAFETY_MS,
    onSpawn: (child) => {
      void eventually(() => server.stats().total >= 1).then(() => child.kill('SIGINT'));
    },
  });
  const report = endedByItself(t, result);
  t.equal(report.interrupted, true);
  t.equal(report.total, 1);
});

t.test('a scenario sleeping or looping past the end is cut after the grace', async (t) => {
  const server = await target(t);
  const dir = t.testdir({
    'sleepy.ts': [
      "import { http, sleep } from 'barrage';",
      'export default async function (vu: { id: number }) {',
      '  if (vu.id % 2 === 0) await sleep(3600);',
      "  else for (;;) await http.get('/json');",
      '}',
      '',
    ].join('\n'),
  });
  const result = await runCli(
    [
      'run',
      '--scenario',
      'sleepy.ts',
      '--target',
      server.url,
      '-d',
      '1s',
      '--timeout',
      '1s',
      '-c',
      '2',
      '--threads',
      '1',
      '--json-output',
    ],
    { cwd: dir, killAfterMs: SAFETY_MS },
  );
  const report = endedByItself(t, result);
  t.ok(server.stats().total > 0, 'the looping user sent requests');
  t.match(
    JSON.stringify(report.iteration_errors),
    /aborted/,
    'the cut iterations count as aborted',
  );
});
