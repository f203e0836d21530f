// The breakdown tables: which appear, their rows and shares, names cut to fit 80 columns, and no
// ANSI codes anywhere.
import t from 'tap';
import {
  renderAuthLine,
  renderBreakdowns,
  renderChecksTable,
  renderEndpointTable,
  renderErrorTable,
  renderStatusCodeTable,
  renderWsTable,
  TABLE_WIDTH,
  truncateName,
  WS_ENDPOINT_NOTE,
} from '../../cli/render/tables.js';
import type { EndpointResult } from '../../runtime/metrics/run-result.js';
import { latencyFixture, runResultFixture } from '../helpers/run-report-fixture.js';

const ANSI = '\u001b[';

function endpoint(name: string, overrides: Partial<EndpointResult> = {}): EndpointResult {
  return {
    name,
    requests: 500,
    failures: 5,
    latency_ms: latencyFixture(),
    status_codes: {},
    errors: {},
    ...overrides,
  };
}

/** The cells of the table line that starts with `first`. */
function row(table: string, first: string): string[] | undefined {
  const line = table.split('\n').find((l) => l.startsWith(`│ ${first} `));
  return line
    ?.split('│')
    .slice(1, -1)
    .map((c) => c.trim());
}

function widest(text: string): number {
  return Math.max(...text.split('\n').map((l) => Array.from(l).length));
}

t.test('truncateName', (t) => {
  const cases: [string, number, string][] = [
    ['short', 10, 'short'],
    ['exactly-10', 10, 'exactly-10'],
    ['eleven-char', 10, 'eleven-ch…'],
    ['ünïcödé-names', 8, 'ünïcödé…'],
  ];
  for (const [name, width, want] of cases) t.equal(truncateName(name, width), want, name);
  t.end();
});

t.test('status codes: ascending, count, share of requests', (t) => {
  const table = renderStatusCodeTable(
    runResultFixture({ status_codes: { '503': 10, '200': 980, '404': 10 } }),
  );
  t.ok(table?.startsWith('Status codes:\n'));
  t.same(row(table!, 'status'), ['status', 'count', 'share']);
  t.same(row(table!, '200'), ['200', '980', '98.0%']);
  t.same(row(table!, '503'), ['503', '10', '1.0%']);
  const order = ['200', '404', '503'].map((code) => table!.indexOf(`│ ${code} `));
  t.same(
    [...order].sort((a, b) => a - b),
    order,
    'ascending codes',
  );
  t.equal(renderStatusCodeTable(runResultFixture()), undefined, 'none without codes');
  t.end();
});

t.test('error kinds: most frequent first, share of requests', (t) => {
  const table = renderErrorTable(runResultFixture({ errors: { reset: 3, timeout: 7 } }))!;
  t.same(row(table, 'timeout'), ['timeout', '7', '0.7%']);
  t.same(row(table, 'reset'), ['reset', '3', '0.3%']);
  t.ok(table.indexOf('timeout') < table.indexOf('reset'));
  const ties = renderErrorTable(runResultFixture({ errors: { tls: 2, http_5xx: 2, dns: 2 } }))!;
  t.ok(ties.indexOf('dns') < ties.indexOf('http_5xx'), 'ties by name');
  t.ok(ties.indexOf('http_5xx') < ties.indexOf('tls'), 'ties by name');
  t.equal(renderErrorTable(runResultFixture()), undefined);
  t.end();
});

t.test('endpoints: only with more than one, ms with two decimals, n/a without data', (t) => {
  t.equal(renderEndpointTable([endpoint('only')]), undefined);
  t.equal(renderEndpointTable([]), undefined);
  const table = renderEndpointTable([
    endpoint('list'),
    endpoint('empty', { requests: 0, failures: 0, latency_ms: undefined }),
  ])!;
  t.same(row(table, 'endpoint'), [
    'endpoint',
    'requests',
    'failures',
    'p50 ms',
    'p95 ms',
    'p99 ms',
  ]);
  t.same(row(table, 'list'), ['list', '500', '5', '2.50', '8.50', '12.00']);
  t.same(row(table, 'empty'), ['empty', '0', '0', 'n/a', 'n/a', 'n/a']);
  t.end();
});

t.test('endpoint names are cut to fit 80 columns', (t) => {
  const long = 'GET /api/v1/organizations/{{orgId}}/projects/{{projectId}}/members?page=2';
  const table = renderEndpointTable([endpoint('short'), endpoint(long, { requests: 1_000_000 })])!;
  t.ok(widest(table) <= TABLE_WIDTH, `widest line ${widest(table)}`);
  t.match(table, /│ GET \/api\/v1\/organizations\/[^│]*… │/);
  t.notMatch(table, 'members');
  t.end();
});

t.test('WebSocket endpoints are marked, even when cut, and explained', (t) => {
  const ws = {
    sessions: 2,
    failures: 0,
    msgs_sent: 2,
    msgs_received: 2,
    msgs_taken: 0,
    msgs_skipped: 0,
    listen_msgs: 0,
    listen_rate: undefined,
    step_failures: {},
    connecting_ms: undefined,
    message_rtt_ms: undefined,
    session_duration_ms: undefined,
  };
  const long = 'GET ws://127.0.0.1:8080/ws/echo?delay=25&room={{room}}&user={{username}}&x=1';
  const table = renderEndpointTable([
    endpoint('api'),
    endpoint('feed', { websocket: ws }),
    endpoint(long, { websocket: ws }),
  ])!;
  t.same(row(table, 'feed (ws)'), ['feed (ws)', '500', '5', '2.50', '8.50', '12.00']);
  t.same(row(table, 'api'), ['api', '500', '5', '2.50', '8.50', '12.00']);
  t.match(table, /│ GET ws:\/\/127[^│]*… \(ws\) │/, 'cut, then marked');
  t.ok(widest(table) <= TABLE_WIDTH, `widest line ${widest(table)}`);
  t.ok(table.endsWith(`\n${WS_ENDPOINT_NOTE}`), 'the note ends the table');
  t.notMatch(renderEndpointTable([endpoint('a'), endpoint('b')])!, '(ws)', 'no note without ws');
  t.end();
});

t.test('WebSocket table', (t) => {
  const table = renderWsTable({
    sessions: 5,
    failures: 1,
    msgs_sent: 50,
    msgs_received: 49,
    msgs_taken: 0,
    msgs_skipped: 0,
    listen_msgs: 0,
    listen_rate: undefined,
    step_failures: {},
    connecting_ms: latencyFixture({ p95: 3.456 }),
    message_rtt_ms: undefined,
    session_duration_ms: latencyFixture({ p50: 100.004, p95: 250 }),
  });
  const cases: [string, string][] = [
    ['sessions', '5'],
    ['failures', '1'],
    ['messages sent', '50'],
    ['messages received', '49'],
    ['connecting p95 ms', '3.46'],
    ['message rtt p50 ms', 'n/a'],
    ['message rtt p99 ms', 'n/a'],
    ['session p50 ms', '100.00'],
    ['session p95 ms', '250.00'],
  ];
  for (const [label, value] of cases) t.same(row(table, label), [label, value], label);
  t.end();
});

t.test('checks table: per name, then all checks unless there is one name', (t) => {
  const two = renderChecksTable({
    passes: 9,
    fails: 1,
    rate: 0.9,
    by_name: { 'status is 200': { passes: 5, fails: 0 }, 'body has id': { passes: 4, fails: 1 } },
  });
  t.same(row(two, 'status is 200'), ['status is 200', '5', '0', '100.0%']);
  t.same(row(two, 'body has id'), ['body has id', '4', '1', '80.0%']);
  t.same(row(two, 'all checks'), ['all checks', '9', '1', '90.0%']);
  const one = renderChecksTable({
    passes: 0,
    fails: 0,
    rate: undefined,
    by_name: { ok: { passes: 0, fails: 0 } },
  });
  t.same(row(one, 'ok'), ['ok', '0', '0', 'n/a']);
  t.equal(row(one, 'all checks'), undefined);
  t.end();
});

t.test('auth line', (t) => {
  t.equal(
    renderAuthLine({ token_fetches: 3, failures: 1, latency_ms: latencyFixture({ p95: 12.345 }) }),
    'Auth: 3 token fetches, 1 failed, p95 12.35ms',
  );
  t.equal(
    renderAuthLine({ token_fetches: 0, failures: 0, latency_ms: undefined }),
    'Auth: 0 token fetches, 0 failed, p95 n/a',
  );
  t.end();
});

t.test('breakdowns: which sections, in order, plain text', (t) => {
  t.same(renderBreakdowns(runResultFixture()), [], 'nothing for a bare run');
  const full = runResultFixture({
    endpoints: [endpoint('a'), endpoint('b')],
    status_codes: { '200': 990 },
    errors: { timeout: 10 },
    websocket: {
      sessions: 1,
      failures: 0,
      msgs_sent: 1,
      msgs_received: 1,
      msgs_taken: 0,
      msgs_skipped: 0,
      listen_msgs: 0,
      listen_rate: undefined,
      step_failures: {},
      connecting_ms: undefined,
      message_rtt_ms: undefined,
      session_duration_ms: undefined,
    },
    checks: { passes: 1, fails: 0, rate: 1, by_name: {} },
    auth: { token_fetches: 1, failures: 0, latency_ms: undefined },
  });
  const sections = renderBreakdowns(full);
  t.same(
    sections.map((s) => s.split('\n')[0]),
    [
      'Endpoints:',
      'Status codes:',
      'Errors:',
      'WebSocket:',
      'Checks:',
      'Auth: 1 token fetch, 0 failed, p95 n/a',
    ],
  );
  for (const s of sections) {
    t.notMatch(s, ANSI, 'no color codes');
    t.ok(widest(s) <= TABLE_WIDTH, 'fits 80 columns');
  }
  t.end();
});
