// The file-based distributed path's safeguards (docs/distributed.md): a stale file of another run
// of the plan is refused, a late segment warns (and says so in its raw file), segments that began
// apart are warned of, `merge --partial` labels what it lacks and exits 1, a segment leaves the
// threshold verdict to the merge, and a SIGTERM names itself and the segment.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTargetServer } from '../../cli/serve/target-server.js';
import type { RawResult } from '../../runtime/raw-result.js';
import { eventually } from '../helpers/eventually.js';
import { runInProcess } from '../helpers/in-process-cli.js';

interface Json {
  total: number;
  warnings?: string[];
  interrupted: boolean;
}

const raw = (dir: string, name: string): RawResult =>
  JSON.parse(readFileSync(join(dir, name), 'utf8')) as RawResult;

t.test('a stale file is refused; late segments and their spread are warned of', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}/json\nrequests: 8\nconcurrency: 2\n`,
  });
  // Start times in the past: each segment is late by design.
  const now = Date.now();
  const thisRun = new Date(now - 5000).toISOString();
  const earlier = new Date(now - 3_600_000).toISOString();
  const segment = (i: number, at: string, out: string) =>
    runInProcess(['run', 'load.yaml', '--segment', `${i}/2`, '--start-at', at, '--raw', out], {
      cwd: dir,
    });
  const first = await segment(1, thisRun, 's1.json');
  t.equal(first.code, 0);
  t.match(first.stderr, /segment 1\/2: dispatch began \d+\.\d s after --start-at/);
  t.ok(raw(dir, 's1.json').lateStartMs! >= 5000, 'the raw file says how late');
  t.equal(raw(dir, 's1.json').startAt, now - 5000, "the run's identity is in the file");
  await segment(2, thisRun, 's2.json');
  await segment(2, earlier, 'old2.json');

  const stale = await runInProcess(['merge', 's1.json', 'old2.json'], { cwd: dir });
  t.equal(stale.code, 1);
  t.equal(stale.stdout, '', 'nothing merged');
  t.match(
    stale.stderr,
    /old2\.json is from another run of the plan than s1\.json \(start time .* ≠ .*\): a stale file\?/,
  );

  const merged = await runInProcess(['merge', 's1.json', 's2.json', '--json-output'], {
    cwd: dir,
  });
  t.equal(merged.code, 0, merged.stderr);
  t.equal((JSON.parse(merged.stdout) as Json).total, 8);
  t.match(merged.stderr, /s1\.json \(segment 1\/2\) began \d+\.\d s after its start time/);
  t.match(merged.stderr, /s2\.json \(segment 2\/2\) began/);

  // Without --start-at, segments that began seconds apart merge with a warning.
  for (const i of [1, 2])
    await runInProcess(['run', 'load.yaml', '--segment', `${i}/2`, '--raw', `f${i}.json`], {
      cwd: dir,
    });
  const f2 = raw(dir, 'f2.json');
  const f1Start = raw(dir, 'f1.json').snapshot.startedAt;
  writeFileSync(
    join(dir, 'f2.json'),
    JSON.stringify({ ...f2, snapshot: { ...f2.snapshot, startedAt: f1Start + 2500 } }),
  );
  const apart = await runInProcess(['merge', 'f1.json', 'f2.json', '--json-output'], { cwd: dir });
  t.equal(apart.code, 0);
  t.match(apart.stderr, /the segments' starts differ by 2\.5 s \(f1\.json first, f2\.json last\)/);
});

t.test('merge --partial merges what exists, labelled in every report, exit 1', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}/json\nrequests: 9\nconcurrency: 3\nthresholds: ["http_requests:count == 9"]\n`,
  });
  for (const i of [1, 3]) {
    const run = await runInProcess(
      ['run', 'load.yaml', '--segment', `${i}/3`, '--raw', `s${i}.json`],
      { cwd: dir },
    );
    t.equal(run.code, 0, "a segment's share failing a whole-run threshold exits 0");
    t.match(
      run.stderr,
      new RegExp(`segment ${i}/3: 1 of 1 thresholds fail on this segment's share alone`),
    );
  }
  const refused = await runInProcess(['merge', 's1.json', 's3.json'], { cwd: dir });
  t.match(refused.stderr, /segment 2\/3 is missing \(merge --partial merges without it\)/);
  const partial = await runInProcess(
    [
      'merge',
      '--partial',
      's1.json',
      's3.json',
      '--json',
      'm.json',
      '--summary-md',
      'm.md',
      '--junit',
      'm.xml',
      '--html',
      'm.html',
    ],
    { cwd: dir },
  );
  t.equal(partial.code, 1, 'a partial result exits 1');
  const label = 'partial result: the figures lack segment 2/3 (no file given)';
  t.match(partial.stdout, label, 'the text report says it');
  t.match(partial.stdout, /Total Requests: 6\n/);
  t.match(partial.stderr, /partial result: segment 2\/3 missing \(no file given\)/);
  const json = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as Json;
  t.equal(json.total, 6, 'the segments that exist, exactly');
  t.same(json.warnings, [label], 'the JSON result says it');
  t.match(readFileSync(join(dir, 'm.md'), 'utf8'), label, 'the Markdown summary says it');
  t.match(
    readFileSync(join(dir, 'm.xml'), 'utf8'),
    `warning: ${label}`,
    'the JUnit report says it',
  );
  t.match(readFileSync(join(dir, 'm.html'), 'utf8'), label, 'the HTML report says it');
});

t.test('a SIGTERMed segment says SIGTERM and which segment', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'load.yaml': `target: ${server.url}/json\nduration: 60s\nrate: 20\nconcurrency: 3\n`,
  });
  const run = await runInProcess(
    ['run', 'load.yaml', '--segment', '2/3', '--json', 'r.json', '--raw', 'r.raw.json'],
    {
      cwd: dir,
      onStart: (send) => {
        void eventually(() => server.stats().total > 0).then(() => send('SIGTERM'));
      },
    },
  );
  t.match(run.stderr, /segment 2\/3: SIGTERM: stopping/);
  t.notMatch(run.stdout + run.stderr, /Ctrl\+C/);
  t.match(run.stdout, 'Interrupted: the run was stopped early by SIGTERM (segment 2/3)');
  t.same(raw(dir, 'r.raw.json').stops, [{ signal: 'SIGTERM', segment: { index: 2, count: 3 } }]);
});
