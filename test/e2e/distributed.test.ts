import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { decodeHistogram, percentileMs } from '../../runtime/metrics/histogram.js';
import type { RawResult } from '../../runtime/raw-result.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

interface Json {
  total: number;
  p50_latency_ms: number;
  p99_latency_ms: number;
  series: { second: number; requests: number }[];
  thresholds?: { failed: number };
}

t.test('three segments merged equal one process, exactly', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const config = `target: ${server.url}/delay/2\nrequests: 300\nconcurrency: 6\nthresholds: ["http_requests:count == 300"]\n`;
  const dir = t.testdir({ 'load.yaml': config });
  // Spawned: three processes as a distributed run has them, each dispatching at --start-at on its
  // own clock and event loop; the rest of the file runs barrage in process.
  // Far enough ahead that three CLIs have started by then, even on a busy machine.
  const startAt = new Date(Date.now() + 6000).toISOString();
  const segments = await Promise.all(
    [1, 2, 3].map((i) =>
      i === 2
        ? runCli(
            ['run', 'load.yaml', '--start-at', startAt, '--raw', `s${i}.json`, '--json-output'],
            { cwd: dir, env: { BARRAGE_SEGMENT: `${i}/3` } },
          )
        : runCli(
            [
              'run',
              'load.yaml',
              '--segment',
              `${i}/3`,
              '--start-at',
              startAt,
              '--raw',
              `s${i}.json`,
              '--json-output',
            ],
            { cwd: dir },
          ),
    ),
  );
  t.same(
    segments.map((s) => (JSON.parse(s.stdout) as Json).total),
    [100, 100, 100],
    'exact shares (BARRAGE_SEGMENT works too)',
  );
  t.same(
    segments.map((s) => s.code),
    [0, 0, 0],
    'a segment leaves the whole-run threshold to the merge',
  );
  const raws = [1, 2, 3].map(
    (i) => JSON.parse(readFileSync(join(dir, `s${i}.json`), 'utf8')) as RawResult,
  );
  for (const raw of raws)
    t.ok(
      Math.abs(raw.snapshot.startedAt - Date.parse(startAt)) < 250,
      `dispatch began at --start-at (${raw.snapshot.startedAt - Date.parse(startAt)} ms off)`,
    );

  const merged = await runInProcess(
    ['merge', 's1.json', 's2.json', 's3.json', '--json-output', '--json', 'merged.json'],
    { cwd: dir },
  );
  t.equal(merged.code, 0, `the merged run passes its threshold: ${merged.stderr}`);
  const result = JSON.parse(merged.stdout) as Json;
  const single = JSON.parse(
    (await runInProcess(['run', 'load.yaml', '--json-output'], { cwd: dir })).stdout,
  ) as Json;
  t.equal(result.total, single.total, 'totals equal one process with the same config');
  t.equal(server.stats().byRoute.delay, 600);

  const byHand = decodeHistogram(raws[0]!.snapshot.latency);
  for (const raw of raws.slice(1)) byHand.add(decodeHistogram(raw.snapshot.latency));
  t.equal(
    result.p50_latency_ms,
    Number(percentileMs(byHand, 50).toFixed(3)),
    'p50 = the histograms merged directly',
  );
  t.equal(
    result.p99_latency_ms,
    Number(percentileMs(byHand, 99).toFixed(3)),
    'p99 = the histograms merged directly',
  );
  t.equal(
    result.series.reduce((sum, s) => sum + s.requests, 0),
    300,
    'per-second series aligned and complete',
  );
  t.same(
    JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')),
    result,
    '--json writes the same result',
  );
});

t.test('feeder records are used exactly once across segments', async (t) => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(new URL(req.url ?? '/', 'http://x').searchParams.get('u') ?? '');
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const users = `u\n${Array.from({ length: 30 }, (_, i) => `user${i}`).join('\n')}\n`;
  const dir = t.testdir({
    'users.csv': users,
    'load.yaml': `target: ${url}\nduration: 30s\nconcurrency: 3\nendpoints: [{ url: "/?u={{u}}" }]\nfeeder: { file: users.csv, cycle: false }\n`,
  });
  const runs = await Promise.all(
    [1, 2, 3].map((i) =>
      runInProcess(['run', 'load.yaml', '--segment', `${i}/3`, '--json-output'], { cwd: dir }),
    ),
  );
  t.same(
    runs.map((r) => r.code),
    [0, 0, 0],
  );
  t.equal(seen.length, 30);
  t.equal(new Set(seen).size, 30, 'no record twice, none missed');
});

t.test('missing, duplicated and foreign segments are refused clearly', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'a.yaml': `target: ${server.url}/json\nrequests: 6\n`,
    'b.yaml': `target: ${server.url}/json\nrequests: 7\n`,
    'junk.json': '{"x": 1}',
  });
  for (const [file, segment, out] of [
    ['a.yaml', '1/3', 'a1'],
    ['a.yaml', '2/3', 'a2'],
    ['a.yaml', '3/3', 'a3'],
    ['b.yaml', '3/3', 'b3'],
  ]) {
    await runInProcess(
      ['run', file!, '--segment', segment!, '--raw', `${out}.json`, '--json-output'],
      {
        cwd: dir,
      },
    );
  }
  const missing = await runInProcess(['merge', 'a1.json', 'a2.json'], { cwd: dir });
  t.equal(missing.code, 1);
  t.equal(missing.stdout, '');
  t.match(missing.stderr, /segment 3\/3 is missing/);
  const twice = await runInProcess(['merge', 'a1.json', 'a2.json', 'a3.json', 'a1.json'], {
    cwd: dir,
  });
  t.match(twice.stderr, /segment 1\/3 appears 2 times: a1\.json, a1\.json/);
  const foreign = await runInProcess(['merge', 'a1.json', 'a2.json', 'b3.json'], { cwd: dir });
  t.match(foreign.stderr, /b3\.json is from a different plan than a1\.json/);
  const thin = await runInProcess(['run', 'a.yaml', '-c', '2', '--segment', '1/3'], { cwd: dir });
  t.match(
    thin.stderr,
    /concurrency: expected at least one worker per segment \(3 segments\), got 2/,
  );
  const bad = await runInProcess(['merge', 'junk.json', 'nope.json'], { cwd: dir });
  t.match(
    bad.stderr,
    /junk\.json: format: expected "barrage-raw" \(a file of barrage run --raw\), got nothing/,
  );
  t.match(bad.stderr, /nope\.json: expected an existing raw result, got no such file/);
});
