// The HTML report as a person sees it: a real short run of the built CLI writes the report, and
// headless Chromium (Debian's, driven by playwright-core) opens it from file:// with the network
// closed. The charts must be drawn with the run's points, the page must log no error and request
// nothing but itself, and its thresholds table must say what the JSON result says. A screenshot
// is kept in test-artifacts/ for people to look at.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import { formatValue } from '../../cli/render/report-figures.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { chromiumSkip, openReport } from '../helpers/chromium.js';
import { runCli } from '../helpers/run-cli.js';
import { checkJunitSchema, xmllintSkip } from '../helpers/xmllint.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const skip = chromiumSkip(process.env);

/** The RGB stroke of each chart's first series (html-charts-script.ts). */
const STROKES: Readonly<Record<string, readonly [number, number, number]>> = {
  throughput: [37, 99, 235],
  latency: [22, 163, 74],
  errors: [220, 38, 38],
  distribution: [124, 58, 237],
  'trend-0': [8, 145, 178],
};

// The page's elements as these tests use them (the project compiles without the DOM library).
interface PageElement {
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
}
interface PageCanvas {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  } | null;
}

const CONFIG = (target: string): string =>
  [
    `target: ${target}`,
    'concurrency: 2',
    'rate: 40',
    'duration: 3s',
    'headers: { Authorization: "Bearer e2e-header-secret" }',
    'metrics: { items: { type: trend, unit: count } }',
    'endpoints:',
    "  - { name: catalog, url: /json, weight: 3, metrics: { items: '$.items[1].id' } }",
    '  - { name: flaky, url: /flaky, weight: 1 }',
    'thresholds:',
    '  - http_req_duration:p95 < 5000',
    '  - http_req_failed:rate < 0.5',
    '  - ws_connecting:p95 < 10',
    '',
  ].join('\n');

t.test('the HTML report in headless Chromium', { skip }, async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({ 'load.yaml': CONFIG(server.url) });
  const run = await runCli(
    ['run', 'load.yaml', '--json', 'result.json', '--html', 'report.html', '--junit', 'junit.xml'],
    { cwd: dir },
  );
  t.equal(run.code, 1, 'ws_connecting has no data: that threshold fails the run');
  t.equal(run.stderr, '');
  const json = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as JsonResult;
  t.ok(json.series.length >= 3, `a point per second (${json.series.length})`);
  t.notMatch(readFileSync(join(dir, 'report.html'), 'utf8'), 'e2e-header-secret');

  const { page, url, errors, requests, close } = await openReport(join(dir, 'report.html'));
  t.teardown(close);

  t.same(errors, [], 'no console errors (a CSP violation would be one)');
  t.same(requests, [url], 'the only request is the file itself');

  const charts = await page.$$eval('figure[data-chart]', (figures: unknown[]) =>
    (figures as PageElement[]).map((f) => ({
      name: f.getAttribute('data-chart') ?? '',
      points: Number(f.getAttribute('data-points')),
      canvases: f.querySelectorAll('canvas').length,
    })),
  );
  const curve = json.latency_distribution.filter((p) => p.percentile < 100).length;
  // The series beyond the JSON result's (VUs, endpoints): test/e2e/html-report-series.test.ts.
  t.same(
    charts.filter((c) => c.name in STROKES),
    [
      { name: 'throughput', points: json.series.length, canvases: 1 },
      { name: 'latency', points: json.series.length, canvases: 1 },
      { name: 'errors', points: json.series.length, canvases: 1 },
      { name: 'distribution', points: curve, canvases: 1 },
      { name: 'trend-0', points: 4, canvases: 1 },
    ],
  );
  for (const [name, [r, g, b]] of Object.entries(STROKES)) {
    const painted = await page.$eval(
      `figure[data-chart="${name}"] canvas`,
      (canvas: unknown, rgb: number[]) => {
        const c = canvas as PageCanvas;
        const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < pixels.length; i += 4)
          if (pixels[i] === rgb[0] && pixels[i + 1] === rgb[1] && pixels[i + 2] === rgb[2]) n++;
        return n;
      },
      [r, g, b],
    );
    t.ok(painted > 50, `${name}: its series is drawn (${painted} pixels of its color)`);
  }

  const rows = await page.$$eval('#thresholds-table tbody tr', (trs: unknown[]) =>
    (trs as PageElement[]).map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    ),
  );
  t.same(
    rows,
    (json.thresholds?.results ?? []).map((r) => [
      r.pass ? '✓ pass' : '✗ fail',
      r.threshold,
      r.actual === null ? 'no data' : formatValue(r.actual),
      `${r.operator} ${formatValue(r.expected)}`,
    ]),
    'the thresholds table says what the JSON says',
  );
  t.equal(rows.length, 3);
  t.match(await page.textContent('#verdict'), 'failed: 1 of 3 thresholds not met');

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'html-report.png'), fullPage: true });
  t.ok(existsSync(join(ARTIFACTS, 'html-report.png')), 'screenshot kept in test-artifacts/');

  t.test(
    'the JUnit file of the same run is valid',
    { skip: xmllintSkip(process.env) },
    async (t) => {
      const check = checkJunitSchema(
        readFileSync(join(dir, 'junit.xml'), 'utf8'),
        dir,
        'check.xml',
      );
      t.ok(check.ok, check.messages);
    },
  );
});
