// A baseline sets the gate (docs/reports.md, Baselines): its figures are bounded, so a file
// whose p95 is 1e308, Infinity or negative is refused naming the file and the key before
// anything is sent; and the reports of a run judged against one name its file and when its run
// began (text, JSON, HTML, Markdown). In process, against the embedded target.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess } from '../helpers/in-process-cli.js';

const THRESHOLD = 'http_req_duration:p95 < baseline * 1.10';

t.test('baseline figures are bounded and their provenance shown', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({});
  const load = ['run', '--target', server.url, '-n', '4', '-c', '1', '--quiet'];
  const base = await runInProcess([...load, '--json', 'base.json'], { cwd: dir });
  t.equal(base.code, 0, base.stderr);
  const text = readFileSync(join(dir, 'base.json'), 'utf8');
  const baseJson = JSON.parse(text) as JsonResult;
  const sent = server.stats().total;
  /** The base result with its p95 written as `figure` (JSON.stringify cannot write 1e999). */
  const withP95 = (figure: string): string =>
    JSON.stringify({ ...baseJson, p95_latency_ms: 'P95' }).replace('"P95"', figure);

  t.test('an absurd figure is refused, naming file and key, nothing sent', async (t) => {
    const crafted: [string, string][] = [
      ['huge.json', withP95('1e308')],
      ['infinite.json', withP95('1e999')],
      ['negative.json', withP95('-5')],
    ];
    for (const [file, body] of crafted) {
      writeFileSync(join(dir, file), body);
      const run = await runInProcess([...load, '--baseline', file, '--threshold', THRESHOLD], {
        cwd: dir,
      });
      t.equal(run.code, 1, file);
      t.match(run.stderr, new RegExp(`${file}.*p95_latency_ms`), `${file} and the key named`);
      const why = { 'huge.json': 'at most 3600000 ms', 'infinite.json': 'a finite latency' };
      t.match(run.stderr, why[file as keyof typeof why] ?? 'a latency ≥ 0 ms');
      t.notMatch(run.stderr, /\n\s+at /, 'no stack trace');
    }
    t.equal(server.stats().total, sent, 'nothing was sent');
  });

  t.test('the reports name the baseline file and when its run started', async (t) => {
    const run = await runInProcess(
      [
        ...load,
        '--baseline',
        'base.json',
        '--threshold',
        'http_req_duration:p95 < baseline * 100',
        '--json',
        'judged.json',
        '--html',
        'judged.html',
        '--summary-md',
        'judged.md',
      ],
      { cwd: dir },
    );
    t.equal(run.code, 0, run.stderr);
    const source = `base.json, a run started ${baseJson.started_at}`;
    t.match(run.stdout, `Thresholds:\n  Baseline: ${source}\n`);
    const judged = JSON.parse(readFileSync(join(dir, 'judged.json'), 'utf8')) as JsonResult;
    t.same(judged.thresholds?.baseline, { file: 'base.json', started_at: baseJson.started_at });
    const html = readFileSync(join(dir, 'judged.html'), 'utf8');
    t.match(html, `<p class="notice" id="baseline-source">Baseline: ${source}</p>`);
    t.match(readFileSync(join(dir, 'judged.md'), 'utf8'), `passed\n\nBaseline: ${source}\n`);
  });

  t.test('a baseline that does not say when it ran says so', async (t) => {
    const { started_at: _, ...undated } = baseJson;
    writeFileSync(join(dir, 'undated.json'), JSON.stringify(undated));
    const run = await runInProcess(
      [...load, '--baseline', 'undated.json', '--threshold', 'http_req_duration:p95 < 3600000'],
      { cwd: dir },
    );
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, 'Baseline: undated.json (it does not say when its run started)');
  });
});
