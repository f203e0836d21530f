// Records test/fixtures/results/ (not run by `npm test`): the raw results of a few runs that
// between them hold every figure barrage records, and what `barrage merge` makes of each (the
// text report, the JSON result, HTML, JUnit, Markdown, the raw result written again).
// test/e2e/result-compat.test.ts renders each raw file with the current build and compares the
// outputs byte for byte: a refactor of the result pipeline must not change them.
//
//   npm run build && node scripts/record-result-fixtures.mjs
//
// Re-record only for a change of the outputs that is meant, and say so in the commit.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist', 'bin.js');
const OUT = join(ROOT, 'test', 'fixtures', 'results');

/** The outputs of `barrage merge` for one case, by file name (the test renders the same). */
const MERGE_FLAGS = [
  '--json',
  'result.json',
  '--html',
  'report.html',
  '--junit',
  'junit.xml',
  '--summary-md',
  'summary.md',
  '--raw',
  'merged.raw',
];

/** Starts `barrage serve --port 0`; resolves with its url and a stop function. */
function serve() {
  const child = spawn(BIN, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done) => {
    child.stdout.setEncoding('utf8').on('data', (text) => {
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0];
      if (url !== undefined) done({ url, stop: () => child.kill() });
    });
  });
}

/**
 * A YAML run with endpoints, streams, a WebSocket session, retries, a redirect (the session app's
 * dashboard sends a visitor without a session to its login page) and custom metrics.
 */
const endpoints = (url) => `target: ${url}
seed: 7
requests: 60
concurrency: 3
rate: 200
retry: { max_attempts: 2, backoff: 10ms }
tags: { team: shop }
metrics:
  echo_bytes: { type: trend, unit: bytes }
  echoed: { type: counter }
  in_stock: { type: rate }
  last_n: { type: gauge }
endpoints:
  - { name: login, method: POST, url: /login, body: { user: ada }, setup: true, extract: { token: $.access_token } }
  - name: me
    url: /me
    headers: { Authorization: 'Bearer {{token}}' }
    checks: [{ name: is ada, json: $.user, equals: ada }]
  - { name: flaky, url: /flaky, weight: 2 }
  - name: echo
    method: POST
    url: /echo
    body: { n: 3 }
    metrics: { echo_bytes: { header: content-length }, echoed: $.body.n, in_stock: { json: $.method }, last_n: $.body.n }
  - { name: missing, url: /status/404, expect: { status: [200] } }
  - { name: hop, url: /app/dashboard }
  - { name: events, url: '/sse?events=3&every_ms=1', stream: sse }
  - { name: lines, url: '/chunks?lines=3&every_ms=1', stream: chunks }
  - name: chat
    url: ws://${url.slice('http://'.length)}/ws/chat?room=r1&token=t-ada
    session:
      - { receive: { json: $.type, equals: welcome } }
      - { send: '{"type":"ping","id":1}', reply: { json: $.type, equals: pong } }
thresholds:
  - 'http_req_duration:p95 < 5000'
  - 'http_req_failed{endpoint=flaky}:rate < 0.5'
  - 'checks:rate == 1'
  - 'echo_bytes:max > 0'
  - 'ws_message_rtt:p99 < 5000'
`;

/** Named scenarios, OAuth 2.0, a flow with think time. */
const scenarios = (url) => `target: ${url}
seed: 11
auth: { type: oauth2, token_url: ${url}/oauth/token, client_id: barrage-demo, client_secret: demo-secret }
endpoints:
  - { name: me, url: /me }
  - { name: json, url: /json }
flows:
  - { name: browse, steps: [json, me], think: 1ms }
scenarios:
  steady:
    executor: constant-arrival-rate
    rate: 40
    duration: 1s
    pre_allocated_vus: 2
    max_vus: 4
  ramp:
    executor: ramping-vus
    stages: [{ duration: 500ms, target: 2 }, { duration: 500ms, target: 0 }]
    start_time: 200ms
thresholds:
  - 'http_requests{scenario=steady}:count > 10'
  - 'iteration_duration:p95 < 5000'
`;

/** A TypeScript scenario: groups, checks, tags, custom metrics, a batch and a ws.connect. */
const SCRIPT = `import { Counter, Gauge, Rate, Trend, check, group, http, ws } from 'barrage';

const sizes = new Trend('page_size');
const pages = new Counter('pages');
const ok = new Rate('pages_ok');
const depth = new Gauge('depth');

export const options = {
  requests: 8,
  concurrency: 2,
  thresholds: ['checks:rate > 0.5', 'page_size:p95 > 0'],
};

export default async function (): Promise<void> {
  await group('browse', async () => {
    const page = await http.get('/json', { tags: { kind: 'page' } });
    check(page, { 'page is 200': (r) => r.status === 200 });
    sizes.add(page.body.length);
    pages.add(1);
    ok.add(page.status === 200);
    depth.add(2);
  });
  const [a, b] = await http.batch([
    ['GET', '/status/404'],
    ['GET', '/echo?x=1'],
  ]);
  check(a, { 'missing is 404': (r) => r.status === 404 });
  check(b, { 'echo has x': (r) => r.body.includes('x') });
  await ws.connect('WS_URL', { name: 'echo socket' }, (socket) => {
    socket.on('open', () => socket.send('hi'));
    socket.on('message', () => socket.close());
  });
}
`;

/** Runs barrage in `dir`; throws when it crashes (an exit code of 1 from a threshold is fine). */
function barrage(dir, args) {
  const run = spawnSync(BIN, args, { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`barrage ${args.join(' ')}: ${run.status}\n${run.stderr}`);
  if (/\n\s+at /.test(run.stderr)) throw new Error(`a stack trace:\n${run.stderr}`);
  return run;
}

/** Records one case: its raw file(s) from `runs`, then merge's outputs from them. */
function record(name, files, runs) {
  const dir = join(OUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  for (const args of runs) barrage(dir, ['run', '--no-typecheck', '--quiet', ...args]);
  for (const file of Object.keys(files)) rmSync(join(dir, file));
  const raws = readdirSync(dir)
    .filter((f) => f.endsWith('.raw'))
    .sort();
  const merged = barrage(dir, ['merge', ...raws, ...MERGE_FLAGS]);
  writeFileSync(join(dir, 'report.txt'), merged.stdout);
  console.log(`${name}: ${raws.join(', ')}`);
}

const target = await serve();
try {
  const url = target.url;
  record('endpoints', { 'load.yaml': endpoints(url) }, [['load.yaml', '--raw', 'run.raw']]);
  record('segments', { 'load.yaml': endpoints(url) }, [
    ['load.yaml', '--segment', '1/2', '--raw', 's1.raw'],
    ['load.yaml', '--segment', '2/2', '--raw', 's2.raw'],
  ]);
  record('scenarios', { 'load.yaml': scenarios(url) }, [['load.yaml', '--raw', 'run.raw']]);
  const wsUrl = `ws://${url.slice('http://'.length)}/ws/echo`;
  record('script', { 'load.ts': SCRIPT.replace('WS_URL', wsUrl) }, [
    ['--scenario', 'load.ts', '--target', url, '--raw', 'run.raw'],
  ]);
} finally {
  target.stop();
}
