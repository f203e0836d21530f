import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

interface JsonFigure {
  scope: string;
  figure: string;
  relative_change: number | null;
  base: number | null;
  new: number | null;
  noise: number | null;
  outside_noise: boolean | null;
}

/** Two endpoints at a fixed rate; `slow` answers after `slowMs`. */
function config(url: string, slowMs: number): string {
  return [
    `target: ${url}`,
    'rate: 40',
    'duration: 6s',
    'concurrency: 20',
    'endpoints:',
    '  - { name: steady, url: /delay/50 }',
    `  - { name: slow, url: /delay/${slowMs} }`,
    '',
  ].join('\n');
}

t.test('compare: the endpoint six times slower is flagged, the other not', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'base.yaml': config(server.url, 50),
    // Six times slower: a busy machine adds tens of milliseconds to either run, never a factor of 6.
    'new.yaml': config(server.url, 300),
    'notes.json': '{"hello": "world"}\n',
  });
  // Spawned: each run's latencies are the target's own, not those of a test process whose event
  // loop the target would share; the comparisons run in process.
  const base = await runCli(['run', 'base.yaml', '--quiet', '--json', 'base.json'], { cwd: dir });
  t.equal(base.code, 0, base.stderr);
  const next = await runCli(['run', 'new.yaml', '--quiet', '--raw', 'new.raw'], { cwd: dir });
  t.equal(next.code, 0, next.stderr);

  const json = await runInProcess(['compare', 'base.json', 'new.raw', '--json', '-'], { cwd: dir });
  t.equal(json.code, 0, `no threshold, exit 0: ${json.stderr}`);
  const figures = (JSON.parse(json.stdout) as { figures: JsonFigure[] }).figures;
  const p95 = (scope: string): JsonFigure | undefined =>
    figures.find((f) => f.scope === scope && f.figure === 'p95');
  const slow = p95('endpoint slow');
  t.equal(slow?.outside_noise, true, 'the slow endpoint’s p95 moved outside the noise');
  t.ok((slow?.relative_change ?? 0) > 0.4, `p95 up about 500 % (${slow?.relative_change})`);
  // The median, not the tail: a loaded machine's scheduling moves a 50 ms endpoint's p95 between
  // two runs by more than either run's own spread, which is all the noise rule can see.
  // Absent when both runs' p50 fell in the same histogram bucket: it did not change at all.
  const steady = figures.find((f) => f.scope === 'endpoint steady' && f.figure === 'p50');
  t.not(
    steady?.outside_noise,
    true,
    `the steady endpoint’s p50 did not: ${JSON.stringify(steady)}`,
  );
  t.equal(
    figures.find((f) => f.scope === 'endpoint slow' && f.figure === 'p50')?.outside_noise,
    true,
    'the slow endpoint’s p50 moved too',
  );

  const failing = await runInProcess(
    [
      'compare',
      'base.json',
      'new.raw',
      '--threshold',
      'http_req_duration{endpoint=slow}:p95 < baseline * 1.10',
    ],
    { cwd: dir },
  );
  t.equal(failing.code, 1, 'a failing comparison threshold exits 1');
  t.match(
    failing.stdout,
    /✗ http_req_duration\{endpoint=slow\}:p95 < baseline \* 1\.10: baseline [\d.]+, actual [\d.]+, limit [\d.]+\n/,
    'the line names the baseline and the actual',
  );
  const passing = await runInProcess(
    [
      'compare',
      'base.json',
      'new.raw',
      '--threshold',
      'http_req_duration{endpoint=slow}:p95 < baseline * 20',
      '--threshold',
      'http_req_duration{endpoint=steady}:p50 < baseline + 500',
    ],
    { cwd: dir },
  );
  t.equal(passing.code, 0, `passing comparison thresholds exit 0: ${passing.stderr}`);
  t.match(passing.stdout, /Threshold Summary: 2\/2 passed/);

  const markdown = await runInProcess(['compare', 'base.json', 'new.raw', '--markdown', 'cmp.md'], {
    cwd: dir,
  });
  t.equal(markdown.code, 0, markdown.stderr);
  const rows = readFileSync(join(dir, 'cmp.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('|'));
  t.equal(rows[0], '| Figure | Base | New | Change | % | Outside noise |', 'a header row');
  t.match(rows[1], /^\| --- (\| ---: ){5}\|$/, 'then the alignment row');
  t.ok(rows.length > 2, 'then the figures');
  const cellCount = (row: string): number => row.split(/(?<!\\)\|/).length;
  t.ok(
    rows.every((row) => cellCount(row) === cellCount(rows[0]!)),
    'every row has as many cells as the header',
  );
  t.match(rows.join('\n'), /\| endpoint slow · p95 \|.*\| \*\*yes\*\* \|/, 'the flag in bold');

  const notResult = await runInProcess(['compare', 'base.json', 'notes.json'], { cwd: dir });
  t.equal(notResult.code, 1, 'a file that is not a result exits 1');
  t.equal(notResult.stdout, '', 'nothing on stdout');
  t.match(notResult.stderr, /notes\.json: expected a JSON result \(--json\) or a raw result/);
  t.notMatch(notResult.stderr, /\n\s+at /, 'no stack trace');
  t.match(notResult.stderr, /^barrage: 1 problem in the input files:\n/, 'not "the configuration"');
  const missing = await runInProcess(['compare', 'gone.json', 'base.json'], { cwd: dir });
  t.equal(missing.code, 1);
  t.match(missing.stderr, /gone\.json/, 'a missing file is named');
  const plain = await runInProcess(
    ['compare', 'base.json', 'new.raw', '--threshold', 'http_req_duration:p95 < 300'],
    { cwd: dir },
  );
  t.equal(plain.code, 1, 'a plain threshold is refused');
  t.match(plain.stderr, /--threshold: expected a relative threshold/);
  t.match(plain.stderr, /got "http_req_duration:p95 < 300"/);
});
