// `barrage validate` (the built binary, spawned) on `thresholds` items in their mapping form
// ({ threshold, abort_on_fail, delay_abort_eval }): a bad one is an error naming file:line and the
// key, exit 1, no stack trace; good ones are listed in the plan with what stops the run. The
// environment and flag forms keep taking expressions.
import t from 'tap';
import { runCli } from '../helpers/run-cli.js';
import { testRefusals, type Refusal } from '../helpers/validate-refusals.js';

const BASE = 'target: http://127.0.0.1:9\nduration: 5s\nthresholds:\n';
const OK = "threshold: 'http_req_failed:rate < 0.05'";

/** Each bad item (line 4 of the file) and its error line. */
const BAD: readonly Refusal[] = [
  [
    'a delay without abort_on_fail',
    `  - { ${OK}, delay_abort_eval: 10s }`,
    /load\.yaml:4:\d+: thresholds\[0\]\.delay_abort_eval: expected abort_on_fail: true beside it .*, got "10s": add abort_on_fail: true, or remove the delay/,
  ],
  [
    'a delay beside abort_on_fail: false',
    `  - { ${OK}, abort_on_fail: false, delay_abort_eval: 10s }`,
    /load\.yaml:4:\d+: thresholds\[0\]\.delay_abort_eval: expected abort_on_fail: true beside it/,
  ],
  [
    'an unknown key',
    `  - { ${OK}, abort_on_fial: true }`,
    /load\.yaml:4:\d+: thresholds\[0\]\.abort_on_fial: expected one of threshold, abort_on_fail, delay_abort_eval, got unknown key "abort_on_fial" \(did you mean abort_on_fail\?\)/,
  ],
  [
    'a bad duration',
    `  - { ${OK}, abort_on_fail: true, delay_abort_eval: 10x }`,
    /load\.yaml:4:\d+: thresholds\[0\]\.delay_abort_eval: expected a duration such as 250ms, 30s, 1m30s or 2h, got "10x": invalid duration "10x": unknown unit "x"/,
  ],
  [
    'a duration without its unit',
    `  - { ${OK}, abort_on_fail: true, delay_abort_eval: 10 }`,
    /load\.yaml:4:5: thresholds\[0\]: expected a mapping \{ threshold: <expression>, abort_on_fail: true, delay_abort_eval: <duration such as 10s> \}; delay_abort_eval: a duration/,
  ],
  [
    'a bad expression in a mapping',
    "  - { threshold: 'http_req_faild:rate < 0.05', abort_on_fail: true }",
    /load\.yaml:4:\d+: thresholds\[0\]\.threshold: expected a threshold .*unknown metric "http_req_faild".*did you mean "http_req_failed"\?/,
  ],
  [
    'a mapping without its threshold',
    '  - { abort_on_fail: true }',
    /load\.yaml:4:5: thresholds\[0\]: expected a mapping .*; threshold: a threshold such as "http_req_duration:p95 < 300", got a mapping/,
  ],
  [
    'abort_on_fail not a boolean',
    `  - { ${OK}, abort_on_fail: yes }`,
    /load\.yaml:4:5: thresholds\[0\]: expected a mapping .*; abort_on_fail: true or false/,
  ],
  [
    'neither an expression nor a mapping',
    '  - 42',
    /load\.yaml:4:5: thresholds\[0\]: expected a threshold such as "http_req_duration:p95 < 300", or a mapping/,
  ],
];

testRefusals(BASE, BAD);

t.test('validate lists which thresholds stop the run, and from when', async (t) => {
  const dir = t.testdir({
    'load.yaml': [
      BASE.trimEnd(),
      `  - { ${OK}, abort_on_fail: true, delay_abort_eval: 1m30s }`,
      "  - { threshold: 'http_requests:count > 5', abort_on_fail: true }",
      "  - { threshold: 'http_req_duration:p95 < 300', abort_on_fail: false }",
      "  - 'http_req_duration:p99 < 900'",
      '',
    ].join('\n'),
  });
  const result = await runCli(
    ['validate', 'load.yaml', '--threshold', 'http_req_failed:count < 9'],
    {
      cwd: dir,
      env: { BARRAGE_THRESHOLDS: 'http_requests:rate > 1; http_req_duration:max < 5000' },
    },
  );
  t.equal(result.code, 0, result.stderr);
  const listed = result.stdout.slice(result.stdout.indexOf('\n  thresholds\n'));
  t.match(
    listed,
    [
      '  thresholds',
      '    http_req_failed:rate < 0.05  (stops the run when it fails, judged live after 1m30s)',
      '    http_requests:count > 5  (stops the run when it fails, judged live from the start)',
      '    http_req_duration:p95 < 300',
      '    http_req_duration:p99 < 900',
      '    http_requests:rate > 1',
      '    http_req_duration:max < 5000',
      '    http_req_failed:count < 9',
      '',
    ].join('\n'),
  );
});
