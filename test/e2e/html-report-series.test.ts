// The HTML report's time series in headless Chromium (Debian's, as test/e2e/html-report.test.ts
// opens it): a 3.5 s run, whose last second lasted half a second, draws that second apart as a
// rate over its length (no cliff to its raw count), the active virtual users and each endpoint's
// requests and mean latency over time; legends show last values, not `--`, and at
// 420 px the thresholds table shows every column without scrolling. Screenshots are kept in
// test-artifacts/ for people to look at.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { chromiumSkip, openReport } from '../helpers/chromium.js';
import { runCli } from '../helpers/run-cli.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

// The page's elements as this test uses them (the project compiles without the DOM library).
interface PageElement {
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
}

interface ChartSeries {
  vus?: { second: number; active: number }[];
  endpoints?: { name: string; seconds: { second: number; requests: number }[] }[];
}

const CONFIG = (target: string): string =>
  [
    `target: ${target}`,
    'concurrency: 2',
    'rate: 40',
    'duration: 3500ms',
    'endpoints:',
    '  - { name: catalog, url: /json, weight: 3 }',
    '  - { name: flaky, url: /flaky, weight: 1 }',
    'thresholds:',
    "  - 'http_req_duration{endpoint=catalog,method=GET,status=200}:p95 < 5000'",
    "  - 'http_req_failed:rate < 0.9'",
    '',
  ].join('\n');

t.test(
  'time series: the partial last second, VUs and endpoints over time',
  { skip: chromiumSkip(process.env) },
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const dir = t.testdir({ 'load.yaml': CONFIG(server.url) });
    const run = await runCli(
      ['run', 'load.yaml', '--json', 'result.json', '--html', 'report.html'],
      { cwd: dir },
    );
    t.equal(run.code, 0, run.stderr);
    const json = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as JsonResult;
    const last = json.series[json.series.length - 1]!;
    const span = json.duration_ms / 1000 - last.second;
    t.ok(span > 0 && span < 1, `the run ended inside its last second (${span.toFixed(3)} s)`);

    const { page, errors, close } = await openReport(join(dir, 'report.html'));
    t.teardown(close);
    t.same(errors, [], 'no console errors');

    for (const [name, key] of [
      ['throughput', 'requests'],
      ['errors', 'failures'],
    ] as const) {
      const figure = `figure[data-chart="${name}"]`;
      t.equal(await page.getAttribute(figure, 'data-partial'), span.toFixed(3), `${name}: marked`);
      t.equal(
        await page.getAttribute(figure, 'data-partial-value'),
        (last[key] / span).toFixed(2),
        `${name}: the last second drawn as its count over its length, not its count`,
      );
      t.match(
        await page.textContent(`${figure} .u-legend`),
        `last ${span.toFixed(2)} s, per second`,
        `${name}: the legend says which line is the partial second`,
      );
    }

    const series = JSON.parse((await page.textContent('#barrage-series')) ?? '{}') as ChartSeries;
    t.ok((series.vus ?? []).length > 0, 'active virtual users sampled');
    t.equal(
      await page.getAttribute('figure[data-chart="vus"]', 'data-points'),
      String(series.vus?.length),
      'a point per sampled second',
    );
    t.same(
      (series.endpoints ?? []).map((e) => e.name).sort(),
      json.endpoints.map((e) => e.name).sort(),
      'every endpoint has its series',
    );
    for (const e of series.endpoints ?? []) {
      const own = json.endpoints.find((j) => j.name === e.name)!;
      t.equal(
        e.seconds.reduce((sum, s) => sum + s.requests, 0),
        own.requests,
        `${e.name}: its seconds add up to its requests`,
      );
    }
    for (const name of ['endpoint-throughput', 'endpoint-latency']) {
      const figure = `figure[data-chart="${name}"]`;
      t.equal(await page.getAttribute(figure, 'data-points'), String(json.series.length), name);
      t.equal(
        await page.$$eval(`${figure} canvas`, (c: unknown[]) => c.length),
        1,
        `${name}: drawn`,
      );
      const legend = (await page.textContent(`${figure} .u-legend`)) ?? '';
      for (const e of json.endpoints) t.match(legend, e.name, `${name}: ${e.name} in the legend`);
    }

    const legends = await page.$$eval('.u-legend', (all: unknown[]) =>
      (all as PageElement[]).map((l) => l.textContent ?? ''),
    );
    t.ok(legends.length >= 7, `${legends.length} legends`);
    t.notOk(
      legends.some((l) => l.includes('--')),
      'no legend shows `--` values waiting for a hover',
    );

    const lastWhole = json.series[json.series.length - 2]!;
    t.match(
      await page.textContent('figure[data-chart="throughput"] .u-legend'),
      `requests/s${lastWhole.requests} (last)`,
      'without a hover, the legend shows the last whole second’s value',
    );

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'html-report-series.png'), fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    const table = await page.$eval('#thresholds .scroll', (box: unknown) => {
      const b = box as PageElement;
      return { scroll: b.scrollWidth, client: b.clientWidth };
    });
    t.ok(
      table.scroll <= table.client,
      `at 420 px the thresholds table fits its box (${table.scroll} of ${table.client} px)`,
    );
    const cells = await page.$$eval('#thresholds-table tbody tr:first-child td', (tds: unknown[]) =>
      (tds as PageElement[]).map((td) => td.textContent ?? ''),
    );
    t.equal(cells.length, 4, 'every column of a threshold row is there');
    await page.screenshot({ path: join(ARTIFACTS, 'html-report-420px.png'), fullPage: true });
  },
);
