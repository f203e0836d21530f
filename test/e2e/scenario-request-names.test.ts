// A TypeScript file with two scenarios names its requests as each scenario meets them, each in its
// own order and on every thread its own way: the per-scenario figures, the thresholds that name a
// scenario and a request, and the live outputs must all read each scenario's own names.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonResult } from '../../cli/render/json-report.js';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runCli } from '../helpers/run-cli.js';

const SCENARIO = [
  "import { http } from 'barrage';",
  'export const options = {',
  '  scenarios: {',
  "    browse: { executor: 'shared-iterations', vus: 2, iterations: 6, exec: 'browse' },",
  "    lookups: { executor: 'shared-iterations', vus: 2, iterations: 4, exec: 'lookup' },",
  '  },',
  '};',
  "export async function browse() { await http.get('/json', { name: 'home' }); await http.get('/json', { name: 'list' }); }",
  "export async function lookup() { await http.get('/status/404', { name: 'product', expect: { status: [404] } }); }",
  'export default browse;',
  '',
].join('\n');

t.test("each scenario's requests under its own names, on one thread and on two", async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  for (const threads of ['1', '2']) {
    const dir = t.testdir({ 'load.ts': SCENARIO });
    const result = await runCli(
      [
        'run',
        '--scenario',
        'load.ts',
        '--target',
        server.url,
        '--threads',
        threads,
        '--threshold',
        'http_requests{scenario=lookups,endpoint=product}:count == 4',
        '--threshold',
        'http_requests{scenario=browse,endpoint=list}:count == 6',
        '--out',
        'json=m.ndjson',
        '--json-output',
      ],
      { cwd: dir },
    );
    t.equal(result.code, 0, `${threads} thread(s): both thresholds hold\n${result.stderr}`);
    const report = JSON.parse(result.stdout) as JsonResult & {
      scenarios: Record<string, { endpoints: { name: string; requests: number }[] }>;
    };
    const named = (scenario: string) =>
      Object.fromEntries(
        report.scenarios[scenario]!.endpoints.filter((e) => e.requests > 0).map((e) => [
          e.name,
          e.requests,
        ]),
      );
    t.strictSame(named('browse'), { home: 6, list: 6 }, `${threads}: browse's own names`);
    t.strictSame(named('lookups'), { product: 4 }, `${threads}: lookups' own names`);
    const streamed = new Map<string, number>();
    for (const line of readFileSync(join(dir, 'm.ndjson'), 'utf8').trim().split('\n')) {
      const point = JSON.parse(line) as {
        type: string;
        metric: string;
        tags?: Record<string, string>;
        data: { count?: number };
      };
      if (point.type !== 'Point' || point.metric !== 'http_requests') continue;
      const key = `${point.tags!.scenario}/${point.tags!.endpoint}`;
      streamed.set(key, (streamed.get(key) ?? 0) + point.data.count!);
    }
    t.strictSame(
      Object.fromEntries([...streamed].sort()),
      { 'browse/home': 6, 'browse/list': 6, 'lookups/product': 4 },
      `${threads}: the stream's series name each scenario's own requests`,
    );
  }
});
