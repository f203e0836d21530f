// The terminal report: the spec §2.8 block exactly, threshold lines, the lines after the block
// (interrupted, open model, retries, breakdowns, warning) and color only when asked.
import t from 'tap';
import { renderTextReport, thresholdLine } from '../../cli/render/text-report.js';
import {
  EXAMPLE_THRESHOLDS,
  latencyFixture,
  runReportFixture,
  runResultFixture,
  thresholdFixture,
} from '../helpers/run-report-fixture.js';

const ANSI = '\u001b[';
const plain = { color: false } as const;

const SPEC_BLOCK = [
  '--- Load Test Results ---',
  'Total Requests: 1000',
  'Successful:     990',
  'Failed:         10',
  'Duration:       10.00s',
  'Requests/sec:   99.98',
  'Latency:',
  '  Min:  1.23ms',
  '  Max:  45.67ms',
  '  Mean: 3.21ms',
  '  P50:  2.50ms',
  '  P90:  5.00ms',
  '  P99:  12.00ms',
  'Thresholds:',
  '  ✓ http_req_duration:p95 < 300: 12.34 < 300.00',
  '  ✗ http_req_failed:rate < 0.01: 0.05 < 0.01',
  'Threshold Summary: 1/2 passed',
  '',
].join('\n');

/** The fixture's bytes (123,456 received, 7,890 sent in 10 s), right after the spec's lines. */
const DATA_LINES = [
  'Data received: 123,456 B (120.6 KiB, 12.1 KiB/s)',
  'Data sent: 7,890 B (7.7 KiB, 789 B/s)',
  '',
].join('\n');

t.test('the spec example renders as exactly the spec block, then the bytes', (t) => {
  t.equal(
    renderTextReport(runReportFixture(runResultFixture(), EXAMPLE_THRESHOLDS), plain),
    SPEC_BLOCK + DATA_LINES,
  );
  t.end();
});

t.test('decoded bytes of compressed responses are said with those received', (t) => {
  const result = runResultFixture({ bytes_decoded: 5 * 1024 * 1024, duration_ms: 0 });
  t.match(
    renderTextReport(runReportFixture(result), plain),
    '\nData received: 123,456 B (120.6 KiB; 5.0 MiB decoded)\nData sent: 7,890 B (7.7 KiB)\n',
  );
  t.end();
});

t.test('without thresholds there is no Thresholds block', (t) => {
  const text = renderTextReport(runReportFixture(), plain);
  t.notMatch(text, /Thresholds:|Threshold Summary/);
  t.ok(text.endsWith(`  P99:  12.00ms\n${DATA_LINES}`));
  t.end();
});

t.test('threshold lines: mark, two decimals, no data', (t) => {
  const cases = [
    {
      name: 'pass',
      r: thresholdFixture(),
      want: '  ✓ http_req_duration:p95 < 300: 12.34 < 300.00',
    },
    {
      name: 'fail, rounded to two decimals',
      r: thresholdFixture({
        threshold: 'http_requests:rate >= 50',
        operator: '>=',
        expected: 50,
        actual: 49.996,
        pass: false,
      }),
      want: '  ✗ http_requests:rate >= 50: 50.00 >= 50.00',
    },
    {
      name: 'count aggregate',
      r: thresholdFixture({
        threshold: 'http_req_failed:count == 0',
        operator: '==',
        expected: 0,
        actual: 0,
      }),
      want: '  ✓ http_req_failed:count == 0: 0.00 == 0.00',
    },
    {
      name: 'no data fails',
      r: thresholdFixture({ actual: null, pass: false }),
      want: '  ✗ http_req_duration:p95 < 300: no data',
    },
  ];
  for (const c of cases) t.equal(thresholdLine(c.r, false), c.want, c.name);
  const report = runReportFixture(runResultFixture(), [
    thresholdFixture({ actual: null, pass: false }),
  ]);
  const text = renderTextReport(report, plain);
  t.match(text, '  ✗ http_req_duration:p95 < 300: no data\nThreshold Summary: 0/1 passed\n');
  t.end();
});

t.test('no completed request prints n/a latencies', (t) => {
  const result = runResultFixture({
    total: 0,
    successes: 0,
    failures: 0,
    requests_per_sec: 0,
    latency_ms: undefined,
  });
  const text = renderTextReport(runReportFixture(result), plain);
  for (const label of ['Min:  ', 'Max:  ', 'Mean: ', 'P50:  ', 'P90:  ', 'P99:  '])
    t.match(text, `\n  ${label}n/a\n`);
  t.match(
    text,
    'WARNING: the run failed (exit 1): no request was sent',
    'nothing sent fails the run',
  );
  t.end();
});

t.test('interrupted run says so right after the block', (t) => {
  const text = renderTextReport(
    runReportFixture(runResultFixture({ interrupted: true }), EXAMPLE_THRESHOLDS),
    plain,
  );
  t.equal(
    text,
    SPEC_BLOCK +
      'Interrupted: the run was stopped early (Ctrl+C); figures cover what completed.\n' +
      DATA_LINES,
  );
  t.notMatch(renderTextReport(runReportFixture(), plain), 'Interrupted');
  t.end();
});

t.test('open model block, then retries', (t) => {
  const result = runResultFixture({
    intended_latency_ms: latencyFixture({ p50: 3, p90: 7.5, p99: 20.125, max: 99 }),
    late: 4,
    dropped: 2,
    retries: 3,
  });
  const text = renderTextReport(runReportFixture(result), plain);
  const tail = [
    '  P99:  12.00ms',
    ...DATA_LINES.split('\n').slice(0, 2),
    'Latency from intended send time (coordinated omission corrected):',
    '  P50:  3.00ms',
    '  P90:  7.50ms',
    '  P99:  20.13ms',
    '  Max:  99.00ms',
    '  Late permits: 4',
    '  Dropped permits: 2',
    'Retries: 3',
    '',
  ].join('\n');
  t.equal(text.slice(-tail.length), tail);
  t.end();
});

t.test('closed model: no open-model block, no retries line at 0', (t) => {
  const text = renderTextReport(runReportFixture(), plain);
  t.notMatch(text, /intended send time|Late permits|Dropped permits|Retries/);
  t.end();
});

t.test('warning when the run proved nothing, thresholds or not', (t) => {
  const failed = runResultFixture({ successes: 0, failures: 1000, errors: { refused: 1000 } });
  const warning =
    'WARNING: the run failed (exit 1): none of its 1000 requests succeeded (refused: 1000).';
  const cases = [
    { name: 'all failed, no thresholds', report: runReportFixture(failed), want: true },
    {
      name: 'all failed, thresholds set',
      report: runReportFixture(failed, EXAMPLE_THRESHOLDS),
      want: true,
    },
    { name: 'some succeeded', report: runReportFixture(), want: false },
  ];
  for (const c of cases)
    t.equal(renderTextReport(c.report, plain).includes(warning), c.want, c.name);
  t.ok(
    renderTextReport(runReportFixture(failed), plain).endsWith(`\n\n${warning}\n`),
    'last, after a blank line',
  );
  t.end();
});

t.test('breakdowns follow as tables after a blank line', (t) => {
  const result = runResultFixture({
    status_codes: { '200': 990, '500': 10 },
    errors: { timeout: 10 },
  });
  const text = renderTextReport(runReportFixture(result, EXAMPLE_THRESHOLDS), plain);
  t.ok(text.startsWith(SPEC_BLOCK + DATA_LINES + '\nStatus codes:\n'));
  t.match(text, '\n\nErrors:\n');
  t.end();
});

t.test('color: green pass, red fail and warning; nothing when off', (t) => {
  const failed = runResultFixture({
    successes: 0,
    failures: 1000,
    interrupted: true,
    retries: 2,
    status_codes: { '503': 1000 },
  });
  const colored = renderTextReport(runReportFixture(runResultFixture(), EXAMPLE_THRESHOLDS), {
    color: true,
  });
  t.match(colored, '\u001b[32m  ✓ http_req_duration:p95 < 300: 12.34 < 300.00\u001b[0m\n');
  t.match(colored, '\u001b[31m  ✗ http_req_failed:rate < 0.01: 0.05 < 0.01\u001b[0m\n');
  const lines = colored.split('\n').filter((l) => l.includes(ANSI));
  t.equal(lines.length, 2, 'only the threshold lines are colored');
  const warned = renderTextReport(runReportFixture(failed), { color: true });
  t.match(warned, '\u001b[31mWARNING: the run failed (exit 1)');
  for (const report of [
    runReportFixture(failed),
    runReportFixture(runResultFixture(), EXAMPLE_THRESHOLDS),
  ]) {
    t.notMatch(renderTextReport(report, plain), ANSI, 'no ANSI codes with color off');
  }
  t.end();
});
