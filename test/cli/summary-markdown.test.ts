// The Markdown summary: verdict heading, headline figures, thresholds, the breakdowns that apply,
// and user text that stays plain text inside GitHub tables.
import t from 'tap';
import {
  codeSpan,
  escapeMarkdown,
  renderSummaryMarkdown,
} from '../../cli/render/summary-markdown.js';
import {
  EXAMPLE_THRESHOLDS,
  latencyFixture,
  runReportFixture,
  runResultFixture,
  thresholdFixture,
} from '../helpers/run-report-fixture.js';

t.test('a run with thresholds: the whole summary', (t) => {
  const md = renderSummaryMarkdown(
    runReportFixture(
      runResultFixture({ status_codes: { '500': 10, '200': 990 }, errors: { http_5xx: 10 } }),
      EXAMPLE_THRESHOLDS,
    ),
  );
  t.equal(
    md,
    [
      '## ❌ barrage: failed: 1 of 2 thresholds not met',
      '',
      'http://127.0.0.1:8080 · 10 workers, 10s · 10.00 s · started 2026-01-02T03:04:05.000Z',
      '',
      '| Requests | Failed | Requests/sec | p50 ms | p95 ms | p99 ms | max ms |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| 1,000 | 10 (1.0%) | 99.98 | 2.50 | 8.50 | 12.00 | 45.67 |',
      '',
      '### Thresholds: 1/2 passed',
      '',
      '|  | Threshold | Actual | Expected |',
      '| --- | --- | ---: | --- |',
      '| ✅ | `http_req_duration:p95 < 300` | 12.34 | `< 300` |',
      '| ❌ | `http_req_failed:rate < 0.01` | 0.05 | `< 0.01` |',
      '',
      '### Status codes',
      '',
      '| Status | Count | Share |',
      '| --- | ---: | ---: |',
      '| 200 | 990 | 99.0% |',
      '| 500 | 10 | 1.0% |',
      '',
      '### Errors',
      '',
      '| Error kind | Count | Share |',
      '| --- | ---: | ---: |',
      '| http\\_5xx | 10 | 1.0% |',
      '',
      '',
    ].join('\n'),
  );
  t.end();
});

t.test('headings: passed, no thresholds, interrupted', (t) => {
  const passed = renderSummaryMarkdown(runReportFixture(runResultFixture(), [thresholdFixture()]));
  t.match(passed, /^## ✅ barrage: passed: 1 of 1 thresholds met\n/);
  const none = renderSummaryMarkdown(runReportFixture(runResultFixture({ interrupted: true })));
  t.match(none, /^## barrage: no thresholds\n/);
  t.match(none, / · \*\*interrupted\*\*\n/);
  t.notMatch(none, '### Thresholds');
  t.end();
});

t.test('no data shows as such', (t) => {
  const md = renderSummaryMarkdown(
    runReportFixture(runResultFixture({ latency_ms: undefined }), [
      thresholdFixture({ actual: null, pass: false }),
    ]),
  );
  t.match(md, '| ❌ | `http_req_duration:p95 < 300` | no data | `< 300` |');
  t.match(md, '| n/a | n/a | n/a | n/a |');
  t.end();
});

t.test('breakdowns: endpoints (two or more), checks, WebSocket', (t) => {
  const endpoint = (name: string) => ({
    name,
    requests: 500,
    failures: 5,
    latency_ms: latencyFixture(),
    status_codes: {},
    errors: {},
  });
  const md = renderSummaryMarkdown(
    runReportFixture(
      runResultFixture({
        endpoints: [endpoint('login'), endpoint('a|b *c*')],
        checks: {
          passes: 3,
          fails: 1,
          rate: 0.75,
          by_name: { ok: { passes: 2, fails: 0 }, 'has id': { passes: 1, fails: 1 } },
        },
        websocket: {
          sessions: 2,
          failures: 0,
          msgs_sent: 10,
          msgs_received: 10,
          msgs_taken: 0,
          msgs_skipped: 0,
          listen_msgs: 0,
          listen_rate: undefined,
          step_failures: {},
          connecting_ms: latencyFixture({ p95: 1.5 }),
          message_rtt_ms: undefined,
          session_duration_ms: undefined,
        },
        sse: {
          events: 40,
          time_to_first_event_ms: latencyFixture({ p50: 30, p95: 35 }),
          event_gap_ms: latencyFixture({ p50: 50, p95: 52 }),
        },
      }),
    ),
  );
  t.match(md, '| login | 500 | 5 | 2.50 | 8.50 | 12.00 |');
  t.match(
    md,
    '### Streamed responses\n\n|  | Received | First p50 ms | First p95 ms | Gap p50 ms | Gap p95 ms |',
  );
  t.match(md, '| events | 40 | 30.00 | 35.00 | 50.00 | 52.00 |');
  t.match(md, '| a\\|b \\*c\\* | 500 | 5 |');
  t.match(
    md,
    '### Checks\n\n|  | Check | Passes | Fails |\n| --- | --- | ---: | ---: |\n| ✅ | ok | 2 | 0 |\n| ❌ | has id | 1 | 1 |',
  );
  t.match(md, '| 2 | 0 | 10 | 10 | 1.50 | n/a |');
  const single = renderSummaryMarkdown(runReportFixture());
  t.notMatch(single, '### Endpoints', 'one endpoint repeats the headline: left out');
  t.end();
});

t.test('escaping: plain text in cells, code spans that cannot break out', (t) => {
  t.equal(
    escapeMarkdown('a|b\n<i>*x*</i> [l](u) `c` ~s~ &amp; #h \\'),
    'a\\|b \\<i\\>\\*x\\*\\</i\\> \\[l\\](u) \\`c\\` \\~s\\~ \\&amp; \\#h \\\\',
  );
  t.equal(codeSpan('x < 1'), '`x < 1`');
  t.equal(codeSpan('a|b'), '`a\\|b`');
  t.equal(codeSpan('a`b'), '``a`b``');
  t.equal(codeSpan('`x'), '`` `x ``');
  t.equal(codeSpan('l1\nl2'), '`l1 l2`');
  t.end();
});

t.test('ends with a blank line so that appended summaries stay apart', (t) => {
  t.ok(renderSummaryMarkdown(runReportFixture()).endsWith('|\n\n'));
  t.end();
});

t.test('named scenarios get a table of their own figures', (t) => {
  const checkout = runResultFixture({ total: 80, failures: 2, iterations: 80, dropped: 3 });
  const md = renderSummaryMarkdown(
    runReportFixture(runResultFixture({ scenarios: { checkout, 'a|b': runResultFixture() } })),
  );
  t.match(md, /### Scenarios\n\n\| Scenario \| Iterations \| Dropped \| Requests \| Failed \|/);
  t.match(md, /\| checkout \| 80 \| 3 \| 80 \| 2 \|/);
  t.match(md, /\| a\\\|b \|/, 'names escaped');
  t.notMatch(renderSummaryMarkdown(runReportFixture()), /Scenarios/, 'none for the top-level form');
  t.end();
});
