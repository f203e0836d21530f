// Relative thresholds on `barrage run --baseline` (docs/reports.md, Baselines): a base run at
// 20 ms (the built CLI), then runs at 200 ms judged against it (in process). The threshold that the
// doubled latency breaks fails with exit 1 and names the baseline, actual and limit in every
// report; a looser one passes with exit 0; without a baseline, or with a figure the baseline
// cannot give, validation refuses before any request; the HTML report draws the baseline's lines
// beside the run's in headless Chromium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { chromiumSkip, openReport } from '../helpers/chromium.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

/** A short fixed-rate run of one endpoint answering after `ms`. */
function config(url: string, ms: number, extra: readonly string[] = []): string {
  return [
    `target: ${url}`,
    'rate: 40',
    'duration: 3s',
    'concurrency: 8',
    'endpoints:',
    `  - { name: api, url: /delay/${ms} }`,
    ...extra,
    '',
  ].join('\n');
}

/** Requests the target has answered so far. */
function served(server: TargetServer): number {
  return server.stats().total;
}

t.test('run --baseline: relative thresholds against an earlier run', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({
    'base.yaml': config(server.url, 20),
    // Ten times slower: a busy machine adds milliseconds to either run, never a factor of 10.
    'slow.yaml': config(server.url, 200),
    'keyed.yaml': config(server.url, 200, [
      'baseline: base.json',
      'thresholds:',
      '  - http_req_duration{endpoint=api}:p50 < baseline + 5',
    ]),
  });
  // Spawned: the base run's latencies must be the target's own, not those of a test process whose
  // event loop the target and the loading of barrage's modules would share.
  const base = await runCli(
    ['run', 'base.yaml', '--quiet', '--raw', 'base.raw', '--json', 'base.json'],
    { cwd: dir },
  );
  t.equal(base.code, 0, base.stderr);
  const baseJson = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')) as JsonResult;
  const baseP95 = baseJson.p95_latency_ms!;

  t.test(
    'a latency ten times the baseline fails `< baseline * 1.10`, every report says so',
    async (t) => {
      const run = await runInProcess(
        [
          'run',
          'slow.yaml',
          '--quiet',
          '--baseline',
          'base.raw',
          '--threshold',
          'http_req_duration:p95 < baseline * 1.10',
          '--threshold',
          'http_req_failed:rate <= baseline + 0.01',
          '--json',
          'slow.json',
          '--summary-md',
          'slow.md',
          '--junit',
          'slow.xml',
        ],
        { cwd: dir },
      );
      t.equal(run.code, 1, 'the failing relative threshold exits 1');
      t.match(
        run.stdout,
        /✗ http_req_duration:p95 < baseline \* 1\.10: [\d.]+ < [\d.]+ \(baseline [\d.]+\)\n/,
      );
      t.match(
        run.stdout,
        /✓ http_req_failed:rate <= baseline \+ 0\.01: 0\.00 <= 0\.01 \(baseline 0\.00\)/,
      );
      const json = JSON.parse(readFileSync(join(dir, 'slow.json'), 'utf8')) as JsonResult;
      const [p95, failed] = json.thresholds!.results;
      // The raw baseline is measured by the same evaluator: exactly the base run's own p95.
      t.equal(p95?.baseline, baseP95, 'the baseline figure is the base run’s p95');
      t.ok(
        Math.abs(p95!.expected - baseP95 * 1.1) < 1e-9,
        `limit = baseline × 1.10 (${p95?.expected})`,
      );
      t.ok((p95?.actual ?? 0) > p95!.expected, `actual ${p95?.actual} above the limit`);
      t.equal(p95?.pass, false);
      t.same([failed?.baseline, failed?.expected, failed?.pass], [0, 0.01, true]);
      t.match(readFileSync(join(dir, 'slow.md'), 'utf8'), /\| Actual \| Baseline \| Expected \|/);
      t.match(readFileSync(join(dir, 'slow.xml'), 'utf8'), /baseline: [\d.]+<\/failure>/);
    },
  );

  t.test('a looser relative threshold passes (exit 0); a JSON baseline and the key', async (t) => {
    const loose = await runInProcess(
      [
        'run',
        'slow.yaml',
        '--quiet',
        '--baseline',
        'base.json',
        '--threshold',
        'http_req_duration:p95 < baseline * 40',
      ],
      { cwd: dir },
    );
    t.equal(loose.code, 0, loose.stdout + loose.stderr);
    t.match(loose.stdout, /✓ http_req_duration:p95 < baseline \* 40: /);

    const keyed = await runInProcess(['run', 'keyed.yaml', '--quiet'], { cwd: dir });
    t.equal(keyed.code, 1, 'p50 of 200 ms is not within 5 ms of a 20 ms baseline');
    t.match(keyed.stdout, /✗ http_req_duration\{endpoint=api\}:p50 < baseline \+ 5: .*\(baseline/);
  });

  t.test('validation refuses before anything is sent', async (t) => {
    const before = served(server);
    const missing = await runInProcess(
      ['run', 'slow.yaml', '--threshold', 'http_req_duration:p95 < baseline * 1.10'],
      { cwd: dir },
    );
    t.equal(missing.code, 1);
    t.match(
      missing.stderr,
      /--threshold: thresholds\[0\]: expected a baseline to read it from: --baseline FILE/,
    );
    const unreadable = await runInProcess(
      [
        'run',
        'slow.yaml',
        '--baseline',
        'base.json',
        '--threshold',
        'http_req_waiting:p95 < baseline',
      ],
      { cwd: dir },
    );
    t.equal(unreadable.code, 1);
    t.match(unreadable.stderr, /base\.json: expected a raw result \(--raw\) for this threshold/);
    const absent = await runInProcess(
      [
        'run',
        'slow.yaml',
        '--baseline',
        'nowhere.raw',
        '--threshold',
        'http_req_duration:p95 < baseline',
      ],
      { cwd: dir },
    );
    t.equal(absent.code, 1);
    t.match(absent.stderr, /nowhere\.raw/);
    const malformed = await runInProcess(
      [
        'validate',
        'slow.yaml',
        '--baseline',
        'base.raw',
        '--threshold',
        'http_req_duration:p95 < baseline ** 2',
      ],
      { cwd: dir },
    );
    t.equal(malformed.code, 1);
    t.match(
      malformed.stderr,
      /after "baseline" write "\* <factor>", "\+ <number>" or "- <number>"/,
    );
    for (const r of [missing, unreadable, absent, malformed]) t.notMatch(r.stderr, /\n\s+at /);
    t.equal(served(server), before, 'the target saw no request');

    const valid = await runInProcess(
      [
        'validate',
        'slow.yaml',
        '--baseline',
        'base.raw',
        '--threshold',
        'http_req_duration:p95 < baseline + 5',
      ],
      { cwd: dir },
    );
    t.equal(valid.code, 0, valid.stderr);
    t.match(
      valid.stdout,
      /http_req_duration:p95 < baseline \+ 5 {2}\(baseline [\d.]+ → < [\d.]+\)/,
    );
  });

  t.test('a scenario: relative thresholds in options; baseline is not an option', async (t) => {
    const scenarios = t.testdir({
      'load.ts': `import { http } from 'barrage';
        export const options = {
          concurrency: 2, requests: 20,
          thresholds: ['http_req_duration:p95 < baseline * 100'],
        };
        export default async function () { await http.get('/delay/40'); }`,
      'sneaky.ts': `export const options = { baseline: '/etc/hostname' };
        export default async function () {}`,
    });
    const args = ['--target', server.url, '--no-typecheck', '--quiet'];
    const judged = await runInProcess(
      ['run', '--scenario', 'load.ts', '--baseline', join(dir, 'base.raw'), ...args],
      { cwd: scenarios },
    );
    t.equal(judged.code, 0, judged.stderr);
    t.match(judged.stdout, /✓ http_req_duration:p95 < baseline \* 100: .*\(baseline [\d.]+\)/);
    const refused = await runInProcess(
      ['validate', '--scenario', 'sneaky.ts', ...args.slice(0, 3)],
      {
        cwd: scenarios,
      },
    );
    t.equal(refused.code, 1);
    t.match(refused.stderr, /baseline: expected no baseline in options/);
  });

  t.test(
    'the HTML report overlays the baseline',
    { skip: chromiumSkip(process.env) },
    async (t) => {
      const run = await runInProcess(
        ['run', 'slow.yaml', '--quiet', '--baseline', 'base.raw', '--html', 'overlay.html'],
        { cwd: dir },
      );
      t.equal(run.code, 0, run.stderr);
      const { page, url, errors, requests, close } = await openReport(join(dir, 'overlay.html'));
      t.teardown(close);
      t.same(errors, [], 'no console errors');
      t.same(requests, [url], 'the only request is the file itself');
      const drawn = await page.$$eval('figure[data-chart]', (figures: unknown[]) =>
        (figures as { getAttribute(name: string): string | null }[]).map((f) => [
          f.getAttribute('data-chart'),
          f.getAttribute('data-baseline'),
        ]),
      );
      t.same(drawn, [
        ['throughput', '1'],
        ['latency', '3'],
        ['errors', '1'],
        // Series the baseline's raw file has no seconds of: drawn without an overlay.
        ['vus', null],
        ['endpoint-throughput', null],
        ['endpoint-latency', null],
        ['distribution', '1'],
      ]);
      t.match(await page.textContent('#baseline-note'), 'base.raw');
    },
  );
});
