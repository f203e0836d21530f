import t, { type Test } from 'tap';
import { buildModel, type DashboardModel } from '../../cli/dashboard/dashboard-model.js';
import { ErrorFeed } from '../../cli/dashboard/error-feed.js';
import { SecondLatencies } from '../../cli/dashboard/latency-trend.js';
import { MIN_COLUMNS, MIN_ROWS, renderScreen } from '../../cli/dashboard/screen.js';
import { lineWidth, toAnsi, type Line } from '../../cli/dashboard/styled-line.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import { loadFixture } from '../helpers/plan-fixture.js';

const ESC = '\u001b';

const TARGET = 'http://127.0.0.1:9';
const SPARK = /[▁▂▃▄▅▆▇█]/;

/** A 6-second run at 100/s over `endpoints` endpoints, some failing, with two thresholds. */
async function model(
  dir: string,
  endpoints = 3,
  options: { stopping?: boolean; started?: boolean } = {},
): Promise<DashboardModel> {
  const names = Array.from({ length: endpoints }, (_, i) => `endpoint-${i}`);
  const loaded = await loadFixture(dir, {
    target: TARGET,
    duration: '20s',
    rate: 100,
    concurrency: 10,
    endpoints: names.map((name, i) => ({ name, url: `/e${i}` })),
    thresholds: ['http_req_duration:p95 < 1000', 'http_req_failed:rate < 0.01'],
  });
  const r = new Recorder({
    endpointCount: endpoints,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: true,
  });
  const feed = new ErrorFeed();
  for (let tick = 1; tick <= 12; tick++) {
    for (let i = 0; i < 50; i++) {
      const endpoint = i % endpoints;
      const failed = endpoint === 1 && i % 5 === 1;
      const end = (tick - 1) * 500_000 + i * 10_000;
      r.recordIteration();
      r.recordRequest(
        endpoint,
        failed ? 503 : 200,
        failed ? 'http_5xx' : undefined,
        end - 2000,
        end,
        end - 2500,
        10,
        10,
      );
    }
    feed.update(r.snapshot(tick * 500_000), names);
  }
  const snapshot = options.started === false ? undefined : r.snapshot(6_000_000);
  return buildModel({
    plan: loaded.plan,
    title: TARGET,
    endpointNames: names,
    latency: new SecondLatencies().trend(snapshot),
    snapshot,
    live: { workers: 10, busy: 4, inFlight: 4, targetRate: 100 },
    stopping: options.stopping ?? false,
    latestErrors: feed.events,
  });
}

function text(lines: readonly Line[]): string[] {
  return lines.map((line) => line.map((s) => s.text).join(''));
}

function checkSize(t: Test, lines: readonly Line[], columns: number, rows: number): void {
  t.equal(lines.length, rows, `exactly ${rows} lines`);
  t.ok(
    lines.every((line) => lineWidth(line) <= columns),
    `no line wider than ${columns}`,
  );
}

t.test('80×24: sparkline, gauges, tables, thresholds and latest errors all show', async (t) => {
  const lines = renderScreen(await model(t.testdir()), { columns: 80, rows: 24 });
  checkSize(t, lines, 80, 24);
  const screen = text(lines);
  t.match(screen[0], /^ barrage {2}http:\/\/127\.0\.0\.1:9 {2}10 workers · 100\/s +running 0:06 $/);
  t.match(screen[1], /^req\/s /);
  t.match(screen.join('\n'), SPARK);
  t.match(screen.join('\n'), /100\/s · peak 100\/s/);
  t.ok(
    screen.some((l) => /^p95 ms {4}[▁▂▃▄▅▆▇█ ]+ p95 2\.00ms · p50 2\.00ms$/.test(l)),
    'the latency of each second, its last p95 and p50',
  );
  for (const label of ['progress', 'errors', 'busy', 'rate'])
    t.ok(
      screen.some((l) => l.startsWith(label)),
      `gauge ${label}`,
    );
  t.ok(screen.some((l) => /^progress\s+█+.*30% {2}6\.0s of 20\.0s/.test(l)));
  t.ok(screen.some((l) => /^status\s+count\s+share │ error\s+count\s+share$/.test(l)));
  t.ok(screen.some((l) => /^200\s+552\s+92\.00% │ http_5xx\s+48\s+8\.00%$/.test(l)));
  t.ok(screen.some((l) => /^endpoint\s+requests\s+failed\s+p50 ms\s+p95 ms\s+p99 ms$/.test(l)));
  t.ok(screen.some((l) => /^endpoint-1\s+204\s+23\.53%\s+2\.00\s+2\.00\s+2\.00$/.test(l)));
  t.ok(screen.some((l) => /^✓ http_req_duration:p95 < 1000\s+2\.00$/.test(l)));
  t.ok(screen.some((l) => /^✗ http_req_failed:rate < 0.01\s+0\.08$/.test(l)));
  t.ok(screen.some((l) => /^0:06\.0\s+endpoint-1\s+×\d+ {2}http_5xx 503$/.test(l)));
  t.match(screen[23], /q or Ctrl\+C stops the run/);
});

t.test('120×40: a taller chart and every row of every table', async (t) => {
  const lines = renderScreen(await model(t.testdir()), { columns: 120, rows: 40 });
  checkSize(t, lines, 120, 40);
  const screen = text(lines);
  const chartRows = screen.filter((l) => SPARK.test(l.slice(10, 100)) && !/░/.test(l));
  t.ok(chartRows.length >= 4, `chart of ${chartRows.length} rows`);
  for (let i = 0; i < 3; i++) t.ok(screen.some((l) => l.startsWith(`endpoint-${i} `)));
  t.notOk(
    screen.some((l) => /… \d+ more/.test(l) && !l.startsWith('0:')),
    'nothing cut but old errors',
  );
});

t.test(
  'many endpoints: the worst first, cut with “… N more”, the thresholds still whole',
  async (t) => {
    const lines = renderScreen(await model(t.testdir(), 30), { columns: 80, rows: 24 });
    checkSize(t, lines, 80, 24);
    const screen = text(lines);
    const heading = screen.findIndex((l) => l.startsWith('endpoint '));
    t.match(screen[heading + 1], /^endpoint-1 .* [1-9]\d*\.\d\d%/, 'the failing endpoint first');
    const rows = screen.slice(heading + 1).findIndex((l) => /^… \d+ more/.test(l));
    t.ok(rows >= 4, `${rows} endpoint rows before “… N more”`);
    t.ok(screen.some((l) => l.startsWith('✓ http_req_duration')));
    t.ok(screen.some((l) => l.startsWith('✗ http_req_failed')));
  },
);

t.test('narrow: the status and error tables stack; every line fits', async (t) => {
  for (const [columns, rows] of [
    [MIN_COLUMNS, MIN_ROWS],
    [50, 30],
    [63, 24],
  ] as const) {
    const lines = renderScreen(await model(t.testdir()), { columns, rows });
    checkSize(t, lines, columns, rows);
    const screen = text(lines);
    t.match(screen[0], /barrage/);
    t.ok(
      screen.some((l) => l.startsWith('progress')),
      `${columns}×${rows}: gauges`,
    );
    if (rows >= 24)
      t.ok(
        screen.some((l) => /^error\s+count\s+share$/.test(l)),
        'stacked',
      );
  }
});

t.test('smaller than the minimum: a message instead of a broken frame', async (t) => {
  const lines = renderScreen(await model(t.testdir()), { columns: 30, rows: 8 });
  checkSize(t, lines, 30, 8);
  t.match(text(lines)[0], /terminal too small: 30×8/);
});

t.test('starting and stopping', async (t) => {
  const dir = t.testdir();
  const starting = text(
    renderScreen(await model(dir, 3, { started: false }), { columns: 80, rows: 24 }),
  );
  t.match(starting[0], /starting 0:00 $/);
  t.match(starting[1], /waiting for the first second/);
  t.match(starting[2], /^p95 ms .*waiting for the first second$/);
  const stopping = text(
    renderScreen(await model(dir, 3, { stopping: true }), { columns: 80, rows: 24 }),
  );
  t.match(stopping[0], /stopping 0:06 $/);
  t.match(stopping[23], /stopping: in-flight requests finish · q or Ctrl\+C again quits now/);
});

t.test('colors only when asked', async (t) => {
  const lines = renderScreen(await model(t.testdir()), { columns: 80, rows: 24 });
  const colored = lines.map((l) => toAnsi(l, true)).join('\n');
  const plain = lines.map((l) => toAnsi(l, false)).join('\n');
  t.ok(colored.includes('\u001b[32m'), 'green');
  t.notMatch(plain, new RegExp(`${ESC}\\[3\\dm`), 'no foreground color');
  t.ok(plain.includes('\u001b[7m'), 'attributes stay (inverse)');
});

t.test('only the endpoint rows shown decode their percentiles', async (t) => {
  const base = await model(t.testdir(), 3);
  let decoded = 0;
  const endpoints = Array.from({ length: 200 }, (_, i) => ({
    name: `e${i}`,
    requests: 10,
    failureRate: 0,
    percentiles: () => {
      decoded++;
      return { p50: 1, p95: 2, p99: 3 };
    },
  }));
  const screen = text(renderScreen({ ...base, endpoints }, { columns: 80, rows: 24 }));
  const shown = screen.filter((l) => /^e\d+ /.test(l)).length;
  t.ok(shown >= 4 && shown < 10, `${shown} rows shown`);
  t.equal(decoded, shown, 'one decode per row shown, none for the rest');
  t.ok(screen.some((l) => l.startsWith(`… ${200 - shown} more`)));
});

t.test('from 30 rows, the p50 of each second under its p95', async (t) => {
  const screen = text(renderScreen(await model(t.testdir()), { columns: 100, rows: 30 }));
  const p95 = screen.findIndex((l) => l.startsWith('p95 ms'));
  t.ok(p95 > 0, 'a p95 row');
  t.match(screen[p95 + 1], /^p50 ms {4}[▁▂▃▄▅▆▇█ ]+ p95 2\.00ms · p50 2\.00ms$/);
});
