/**
 * `--out influxdb=URL` as a user runs it (docs/outputs.md, InfluxDB): the built CLI streams line
 * protocol to a real VictoriaMetrics, whose data must add up to the run's JSON result; to a
 * loopback InfluxDB 2.x write API that checks its token; and refuses a URL that is no write URL.
 */
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { eventually } from '../helpers/eventually.js';
import { runCli } from '../helpers/run-cli.js';
import {
  VICTORIA_METRICS,
  receiverSkip,
  startVictoriaMetrics,
  type ExportedSeries,
} from '../helpers/promql-receivers.js';

/** An endpoint name line protocol must escape (space, comma, equals sign). */
const ODD_NAME = 'flaky one, a=b';

/** Two endpoints of the embedded target, /flaky failing every 5th request. */
function twoEndpoints(target: string, extra = ''): string {
  return `target: ${target}
rate: 40
duration: 3s
concurrency: 4
endpoints:
  - { name: home, url: / }
  - { name: "${ODD_NAME}", url: /flaky }
${extra}`;
}

/** The JSON result's figures of an endpoint. */
interface EndpointResult {
  readonly name: string;
  readonly requests: number;
  readonly failures: number;
}

/** The values of a field's series summed per endpoint tag. */
function sumByEndpoint(series: readonly ExportedSeries[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const s of series) {
    const endpoint = s.metric.endpoint ?? '(none)';
    sums[endpoint] = (sums[endpoint] ?? 0) + s.values.reduce((a, b) => a + b, 0);
  }
  return sums;
}

async function startTarget(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

t.test(
  'VictoriaMetrics gets every period: per-endpoint sums equal the run, p95 and testid there',
  { skip: receiverSkip(VICTORIA_METRICS, process.env) },
  async (t) => {
    const target = await startTarget(t);
    const dir = t.testdir({ 'two.yaml': twoEndpoints(target.url) });
    const vm = await startVictoriaMetrics(t, dir);
    const run = await runCli(
      [
        'run',
        'two.yaml',
        '--out',
        `influxdb=${vm.url}/write`,
        '--out-period',
        '1s',
        '--json',
        'result.json',
        '--quiet',
      ],
      { cwd: dir },
    );
    t.equal(run.code, 0, run.stderr);
    t.notMatch(run.stderr, /output influxdb/, 'no payload lost');
    const endpoints = (
      JSON.parse(readFileSync(`${dir}/result.json`, 'utf8')) as { endpoints: EndpointResult[] }
    ).endpoints;
    const expected = Object.fromEntries(endpoints.map((e) => [e.name, e.requests]));
    t.same(Object.keys(expected).sort(), [ODD_NAME, 'home'].sort());

    // VictoriaMetrics names a field measurement_field; rows become searchable a little after.
    let requests: ExportedSeries[] = [];
    await eventually(async () => {
      requests = await vm.exportSeries('{__name__="http_requests_value"}');
      return sameSums(sumByEndpoint(requests), expected);
    }, 15_000).catch(() => undefined);
    t.same(sumByEndpoint(requests), expected, 'http_requests per endpoint, as in --json');
    t.ok(
      requests.some((s) => s.values.length > 1),
      'sent in several periods, not only at the end',
    );

    const failed = await vm.exportSeries('{__name__="http_req_failed_trues"}');
    t.same(
      sumByEndpoint(failed),
      Object.fromEntries(endpoints.map((e) => [e.name, e.failures])),
      'http_req_failed trues per endpoint, as in --json',
    );

    const p95 = await vm.exportSeries('{__name__="http_req_duration_p95"}');
    t.same(
      [...new Set(p95.map((s) => s.metric.endpoint))].sort(),
      [ODD_NAME, 'home'].sort(),
      'a p95 field for each endpoint',
    );
    t.ok(
      p95.every((s) => s.values.every((v) => v > 0)),
      'p95 in ms, above 0',
    );

    const testids = new Set([...requests, ...p95].map((s) => s.metric.testid));
    t.equal(testids.size, 1, 'one testid on every series');
    t.match([...testids][0], /^\d{8}T\d{6}-[0-9a-f]{4}$/, 'the generated testid');
  },
);

function sameSums(a: Record<string, number>, b: Record<string, number>): boolean {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

/** A request the loopback InfluxDB 2.x got. */
interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Plays InfluxDB 2.x's write API: /api/v2/write with `Authorization: Token <token>`, else 401. */
async function influxV2(t: Test, token: string): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path !== '/api/v2/write') res.writeHead(404).end();
      else if (req.headers.authorization !== `Token ${token}`)
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"code":"unauthorized","message":"unauthorized access"}');
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

const TOKEN = 'influx-token-5f3a9c';

/** A run whose influxdb output is the mapping form, its token from the environment. */
async function runV2(t: Test, receiver: string, token: string) {
  const target = await startTarget(t);
  const output = `outputs:
  - type: influxdb
    url: ${receiver}/api/v2/write?org=acme&bucket=load
    token: \${INFLUX_TOKEN}
output_period: 1s
`;
  const dir = t.testdir({ 'v2.yaml': twoEndpoints(target.url, output) });
  return runCli(['run', 'v2.yaml'], { cwd: dir, env: { INFLUX_TOKEN: token } });
}

t.test(
  'InfluxDB 2.x: the v2 write path, the token, ms precision; the token never shown',
  async (t) => {
    const influx = await influxV2(t, TOKEN);
    const run = await runV2(t, influx.url, TOKEN);
    t.equal(run.code, 0, run.stderr);
    t.ok(influx.received.length >= 2, 'a payload each period and one at the end');
    for (const request of influx.received) {
      const url = new URL(request.url, 'http://x');
      t.equal(url.pathname, '/api/v2/write');
      t.same(
        Object.fromEntries(url.searchParams),
        { org: 'acme', bucket: 'load', precision: 'ms' },
        'the user’s query, and precision=ms',
      );
      t.equal(request.headers.authorization, `Token ${TOKEN}`);
      t.equal(request.headers['content-type'], 'text/plain; charset=utf-8');
    }
    const lines = influx.received.flatMap((r) => r.body.split('\n'));
    t.ok(
      lines.some((l) => l.startsWith('http_requests,endpoint=flaky\\ one\\,\\ a\\=b,')),
      'the odd endpoint name escaped',
    );
    t.ok(
      lines.every((l) => /^\S+ \S+ \d{13}$/.test(l.replace(/\\ /g, '_'))),
      'every line: measurement and tags, fields, a timestamp in ms',
    );
    t.notOk(`${run.stdout}${run.stderr}`.includes(TOKEN), 'the token is not in stdout or stderr');
  },
);

t.test(
  'a refused token is a warning with a count, the run ends well, the token unshown',
  async (t) => {
    const influx = await influxV2(t, TOKEN);
    const wrong = 'wrong-token-77e1b0';
    const run = await runV2(t, influx.url, wrong);
    t.equal(run.code, 0, 'a receiver’s failure is not the run’s');
    t.ok(influx.received.length >= 1);
    t.match(
      run.stderr,
      /output influxdb http:\/\/127\.0\.0\.1:\d+\/api\/v2\/write\?org=acme&bucket=load: (\d+) of \1 sends failed \(last: the receiver answered 401: .*unauthorized access.*\); \d+ of \d+ samples lost/,
    );
    t.notOk(`${run.stdout}${run.stderr}`.includes(wrong), 'the token is not in stdout or stderr');
  },
);

t.test('a URL that is no write URL is refused before anything is sent', async (t) => {
  const influx = await influxV2(t, TOKEN);
  const target = await startTarget(t);
  const run = await runCli([
    'run',
    '--target',
    target.url,
    '-n',
    '5',
    '--out',
    `influxdb=${influx.url}/query`,
  ]);
  t.equal(run.code, 1);
  t.match(
    run.stderr,
    /--out: outputs\[0\]\.url: expected a write URL whose path ends in \/write .* or \/api\/v2\/write .*, got "\/query"/,
  );
  t.equal(influx.received.length, 0, 'nothing sent to the receiver');
  t.equal(target.stats().total, 0, 'nor to the target');
  t.notMatch(run.stderr, /\n\s+at /, 'no stack trace');
});

t.test('a precision other than ms is refused: barrage stamps lines in ms', async (t) => {
  const run = await runCli([
    'validate',
    '--target',
    'http://127.0.0.1:1',
    '--out',
    'influxdb=http://127.0.0.1:1/write?db=load&precision=s',
  ]);
  t.equal(run.code, 1);
  t.match(
    run.stderr,
    /--out: outputs\[0\]\.url: expected precision=ms or no precision \(barrage sends millisecond timestamps\), got "precision=s"/,
  );
});
