// `abort_on_fail` thresholds (docs/configuration.md#thresholds), the built CLI spawned as a user
// runs it against a target that turns from 200 to 500 after its first requests: the run stops
// once the threshold fails after its delay, with every report naming it and exit code 1; a delay
// longer than the run, a threshold with no data, and a threshold without abort_on_fail do not
// stop it. Times are read from the JSON report (duration_ms, at_ms), never from a wall clock.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { JsonResult } from '../../cli/render/json-report.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** The planned length of the runs meant to be stopped, far above where they stop. */
const PLANNED = '30s';
/** A run that was stopped ends well before PLANNED: its delay (1 s) and a few snapshots. */
const STOPPED_BEFORE_MS = 10_000;
/** A test safety net, not an assertion: a run that needed it fails the test. */
const SAFETY_MS = 60_000;
const FAILED = 'http_req_failed:rate < 0.1';

/** A target answering 200 to its first `ok` requests, then 500 to every one. */
async function turningTarget(t: Test, ok: number): Promise<string> {
  let seen = 0;
  const server = createServer((_req, res) => {
    seen++;
    res.statusCode = seen <= ok ? 200 : 500;
    res.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Runs `load.yaml` (with every report file asked for) in a fresh folder. */
async function runYaml(t: Test, yaml: readonly string[]): Promise<[SpawnResult, string]> {
  const reports = 'report: { json: r.json, junit: r.xml, summary_md: r.md, html: r.html }';
  const dir = t.testdir({ 'load.yaml': [...yaml, reports, ''].join('\n') });
  const result = await runCli(['run', 'load.yaml', '--no-dashboard'], {
    cwd: dir,
    killAfterMs: SAFETY_MS,
  });
  t.equal(result.signal, null, 'ended by itself');
  return [result, dir];
}

function jsonReport(dir: string): JsonResult {
  return JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as JsonResult;
}

/** Checks a run stopped by FAILED: exit 1, soon after the delay, and every report says so. */
function stoppedByFailed(t: Test, result: SpawnResult, dir: string): void {
  t.equal(result.code, 1, result.stderr);
  const json = jsonReport(dir);
  t.ok(json.duration_ms < STOPPED_BEFORE_MS, `stopped early (${json.duration_ms} ms)`);
  t.equal(json.interrupted, true);
  const aborted = json.thresholds?.aborted;
  t.equal(aborted?.threshold, FAILED);
  t.ok((aborted?.at_ms ?? 0) >= 1000, 'not before its delay');
  t.ok((aborted?.at_ms ?? Infinity) <= json.duration_ms, 'within the run');
  const failed = json.thresholds?.results.find((r) => r.threshold === FAILED);
  t.equal(failed?.pass, false, 'judged on the final figures too');
  const at = `${FAILED} failed at ${((aborted?.at_ms ?? 0) / 1000).toFixed(2)} s`;
  t.match(result.stdout, `Aborted: threshold ${at} and stopped the run (abort_on_fail)`);
  t.notMatch(result.stdout, 'Interrupted:', 'not a Ctrl+C');
  t.match(result.stderr, `barrage: threshold ${at} (abort_on_fail): stopping`);
  const xml = readFileSync(join(dir, 'r.xml'), 'utf8');
  t.match(xml, `; it stopped the run: ${at.replace('<', '&lt;')}" type="threshold"`);
  t.match(readFileSync(join(dir, 'r.md'), 'utf8'), `Stopped the run (abort_on_fail): \``);
  t.match(readFileSync(join(dir, 'r.html'), 'utf8'), 'id="aborted"');
}

/** A rate-limited run of PLANNED against `url`, with `thresholds` and `extra` lines. */
function plannedRun(url: string, thresholds: readonly string[], extra: string[] = []): string[] {
  return [
    `target: ${url}`,
    `duration: ${PLANNED}`,
    'rate: 100',
    'concurrency: 4',
    ...extra,
    'thresholds:',
    ...thresholds.map((line) => `  - ${line}`),
  ];
}

const ABORTING = `{ threshold: '${FAILED}', abort_on_fail: true, delay_abort_eval: 1s }`;

t.test('a failing abort_on_fail threshold stops the run soon after its delay', async (t) => {
  const url = await turningTarget(t, 100);
  const yaml = plannedRun(url, [ABORTING, "'http_req_duration:p95 < 10000'"], ['threads: 1']);
  const [result, dir] = await runYaml(t, yaml);
  stoppedByFailed(t, result, dir);
});

t.test('the same run on 2 threads stops on the merged figures', async (t) => {
  const url = await turningTarget(t, 100);
  const [result, dir] = await runYaml(t, plannedRun(url, [ABORTING], ['threads: 2']));
  stoppedByFailed(t, result, dir);
});

t.test('a TypeScript scenario stops on an object threshold of its options', async (t) => {
  const url = await turningTarget(t, 100);
  const dir = t.testdir({
    'main.ts': [
      "import { http } from 'barrage';",
      `export const options = { rate: 100, duration: '${PLANNED}', thresholds: [`,
      `  { threshold: '${FAILED}', abort_on_fail: true, delay_abort_eval: '1s' },`,
      '] };',
      "export default async function (): Promise<void> { await http.get('/'); }",
      '',
    ].join('\n'),
  });
  const validate = await runCli(['validate', '--scenario', 'main.ts', '--target', url], {
    cwd: dir,
  });
  t.equal(validate.code, 0, validate.stderr);
  t.match(validate.stdout, `    ${FAILED}  (stops the run when it fails, judged live after 1s)`);
  const args = ['run', '--scenario', 'main.ts', '--target', url, '--json-output', '-c', '4'];
  const result = await runCli(args, { cwd: dir, killAfterMs: SAFETY_MS });
  t.equal(result.code, 1, result.stderr);
  const json = JSON.parse(result.stdout) as JsonResult;
  t.ok(json.duration_ms < STOPPED_BEFORE_MS, `stopped early (${json.duration_ms} ms)`);
  t.equal(json.thresholds?.aborted?.threshold, FAILED);
});

t.test('what does not stop a run', async (t) => {
  const cases: [name: string, threshold: string][] = [
    [
      'a delay longer than the run',
      `{ threshold: '${FAILED}', abort_on_fail: true, delay_abort_eval: 1h }`,
    ],
    ['a threshold without abort_on_fail', `{ threshold: '${FAILED}' }`],
    ['a plain expression', `'${FAILED}'`],
    [
      'an abort threshold with no data',
      "{ threshold: 'ws_connecting:p95 < 1', abort_on_fail: true }",
    ],
  ];
  for (const [name, threshold] of cases)
    await t.test(name, async (t) => {
      const url = await turningTarget(t, 0);
      const yaml = [
        `target: ${url}`,
        'duration: 2s',
        'rate: 20',
        'thresholds:',
        `  - ${threshold}`,
      ];
      const [result, dir] = await runYaml(t, yaml);
      t.equal(result.code, 1, 'the threshold fails at the end');
      const json = jsonReport(dir);
      t.equal(json.interrupted, false, 'ran its whole duration');
      t.equal(json.thresholds?.aborted, undefined);
      t.equal(json.thresholds?.failed, 1);
      t.notMatch(result.stdout, 'Aborted:');
    });
});

t.test('--segment processes each judge their share; merge keeps the earliest abort', async (t) => {
  const url = await turningTarget(t, 100);
  const dir = t.testdir({ 'load.yaml': [...plannedRun(url, [ABORTING]), ''].join('\n') });
  const segments = await Promise.all(
    [1, 2].map((i) =>
      runCli(['run', 'load.yaml', '--segment', `${i}/2`, '--raw', `s${i}.json`, '--json-output'], {
        cwd: dir,
        killAfterMs: SAFETY_MS,
      }),
    ),
  );
  const aborts = segments.map((result) => {
    t.equal(result.code, 0, 'a segment leaves the verdict to the merge');
    t.match(result.stderr, /thresholds are the whole run's, judged when the segments are merged/);
    const json = JSON.parse(result.stdout) as JsonResult;
    t.ok(json.duration_ms < STOPPED_BEFORE_MS, `stopped early (${json.duration_ms} ms)`);
    return json.thresholds?.aborted?.at_ms ?? Infinity;
  });
  const merged = await runCli(['merge', 's1.json', 's2.json', '--json-output'], { cwd: dir });
  t.equal(merged.code, 1, merged.stderr);
  const json = JSON.parse(merged.stdout) as JsonResult;
  t.equal(json.thresholds?.aborted?.threshold, FAILED);
  t.equal(json.thresholds?.aborted?.at_ms, Math.min(...aborts));
});
