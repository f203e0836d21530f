/**
 * The Grafana dashboard scenarios/grafana/barrage-dashboard.json (docs/outputs.md, Prometheus
 * remote write): its JSON is one Grafana imports (unique panel ids, a place on the grid, the
 * `${datasource}` variable everywhere, targets with refIds, the `datasource` and `testid`
 * variables), and every query in it works on what `--out prometheus-rw` sends: the built CLI
 * streams a run to a real Prometheus, then each panel's expressions, as Grafana would send them
 * for that run, are asked of it: each must succeed and find series (the run has checks, a
 * threshold and failed requests, and barrage sends dropped iterations even when there are none).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { PROMETHEUS, receiverSkip, startPrometheus } from '../helpers/promql-receivers.js';
import { runCli } from '../helpers/run-cli.js';

const DASHBOARD_FILE = fileURLToPath(
  new URL('../../scenarios/grafana/barrage-dashboard.json', import.meta.url),
);

/** The panel and template datasource every query goes through: the variable the import sets. */
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

interface Target {
  readonly refId?: unknown;
  readonly expr?: unknown;
  readonly datasource?: unknown;
  readonly legendFormat?: string;
}

interface Panel {
  readonly id?: unknown;
  readonly title?: string;
  readonly gridPos?: Readonly<Record<string, unknown>>;
  readonly datasource?: unknown;
  readonly targets?: readonly Target[];
}

interface Variable {
  readonly name?: string;
  readonly type?: string;
  readonly query?: unknown;
  readonly datasource?: unknown;
}

interface Dashboard {
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: readonly Variable[] };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;

/** The testid variable's query: `label_values(<selector>, <label>)`. */
const LABEL_VALUES = /^label_values\((.+),\s*(\w+)\)$/;

function variable(name: string): Variable | undefined {
  return dashboard.templating.list.find((v) => v.name === name);
}

t.test('the dashboard JSON: panels, targets and variables Grafana imports', async (t) => {
  const panels = dashboard.panels;
  t.ok(panels.length > 0, 'it has panels');
  const ids = panels.map((p) => p.id);
  t.ok(
    ids.every((id) => Number.isInteger(id)),
    'every panel has an integer id',
  );
  t.equal(new Set(ids).size, panels.length, 'panel ids are unique');
  for (const panel of panels) {
    const name = panel.title ?? `panel ${String(panel.id)}`;
    const grid = panel.gridPos ?? {};
    t.ok(
      ['x', 'y', 'w', 'h'].every((k) => Number.isInteger(grid[k])),
      `${name}: gridPos x, y, w, h`,
    );
    t.ok(Number(grid.x) + Number(grid.w) <= 24, `${name}: within the grid's 24 columns`);
    t.same(panel.datasource, DATASOURCE, `${name}: the \${datasource} variable`);
    const targets = panel.targets ?? [];
    t.ok(targets.length > 0, `${name}: has targets`);
    const refIds = targets.map((target) => target.refId);
    t.ok(
      refIds.every((r) => typeof r === 'string' && r !== ''),
      `${name}: every target has a refId`,
    );
    t.equal(new Set(refIds).size, refIds.length, `${name}: refIds are unique`);
    for (const target of targets) {
      t.ok(typeof target.expr === 'string' && target.expr !== '', `${name}: an expression`);
      t.same(target.datasource ?? DATASOURCE, DATASOURCE, `${name}: the target's datasource`);
    }
  }
  t.match(variable('datasource'), { type: 'datasource', query: 'prometheus' });
  const testid = variable('testid');
  t.match(testid, { type: 'query', datasource: DATASOURCE, query: { query: LABEL_VALUES } });
});

/** What Grafana sends for a run: `$testid` the run's, `$__rate_interval` a minute. */
function expand(expr: string, testid: string): string {
  return expr.replaceAll('$__rate_interval', '1m').replaceAll('$testid', testid);
}

const TESTID = 'dashboard-check-1';

/**
 * 3 s at 20/s: two endpoints, one a check, the other /flaky (every 5th request a 503, so errors
 * have a kind), a threshold that holds.
 */
function loadYaml(target: string): string {
  return [
    `target: ${target}`,
    'rate: 20',
    'duration: 3s',
    'concurrency: 10',
    `tags: { testid: ${TESTID} }`,
    'thresholds: ["http_req_duration:p95 < 5000"]',
    'endpoints:',
    '  - name: home',
    '    url: /',
    '    checks: [{ name: home is 200, status: 200 }]',
    '  - { name: flaky, url: /flaky }',
  ].join('\n');
}

t.test(
  "every panel's query runs on a real Prometheus fed by prometheus-rw, and finds the run",
  { skip: receiverSkip(PROMETHEUS, process.env) },
  async (t) => {
    const dir = t.testdir();
    const prometheus = await startPrometheus(t, dir);
    const target = await startTargetServer();
    t.teardown(() => target.close());
    writeFileSync(join(dir, 'load.yaml'), loadYaml(target.url));
    const run = await runCli(
      [
        'run',
        'load.yaml',
        '--quiet',
        '--no-dashboard',
        '--out',
        `prometheus-rw=${prometheus.writeUrl}`,
        '--out-period',
        '1s',
      ],
      { cwd: dir },
    );
    t.equal(run.code, 0, run.stderr);
    t.notMatch(run.stderr, /output prometheus-rw/, 'no send failed');

    const lastFlush = await prometheus.query(
      `max(timestamp(barrage_http_requests_total{testid="${TESTID}"}))`,
    );
    const at = (lastFlush[0]?.value ?? NaN) + 1;
    t.ok(Number.isFinite(at), 'the run reached Prometheus');

    const query = variable('testid')?.query as { query: string };
    const [, selector = '', label = ''] = LABEL_VALUES.exec(query.query) ?? [];
    t.ok(
      (await prometheus.labelValues(label, selector)).includes(TESTID),
      `${query.query} lists the run`,
    );

    for (const panel of dashboard.panels) {
      for (const target of panel.targets ?? []) {
        const expr = expand(String(target.expr), TESTID);
        const name = `${panel.title ?? ''} ${String(target.refId)}`;
        t.notMatch(expr, '$', `${name}: no variable left unexpanded`);
        const result = await prometheus.query(expr, at).catch((error: Error) => error);
        if (result instanceof Error) {
          t.fail(`${name}: ${result.message}`);
          continue;
        }
        t.ok(result.length > 0, `${name}: finds the run's series (${expr})`);
        const legendLabels = [...(target.legendFormat ?? '').matchAll(/{{(\w+)}}/g)].map(
          (m) => m[1] ?? '',
        );
        if (legendLabels.length > 0)
          t.ok(
            result.every((s) => legendLabels.every((l) => s.metric[l] !== undefined)),
            `${name}: the legend's ${legendLabels.join(', ')} on every series`,
          );
      }
    }
  },
);
