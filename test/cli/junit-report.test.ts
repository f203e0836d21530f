// The JUnit report: one test case per threshold (and per check), failures carrying actual vs
// expected, counts that add up, XML escaping, and validity against the common JUnit schema
// (test/fixtures/junit.xsd, checked with xmllint).
import t from 'tap';
import {
  escapeXml,
  renderJunitReport,
  thresholdFailureMessage,
} from '../../cli/render/junit-report.js';
import {
  EXAMPLE_THRESHOLDS,
  runReportFixture,
  runResultFixture,
  thresholdFixture,
} from '../helpers/run-report-fixture.js';
import { checkJunitSchema, xmllintSkip } from '../helpers/xmllint.js';

const NO_DATA = thresholdFixture({
  threshold: 'ws_connecting:p95 < 10',
  metric: 'ws_connecting',
  expected: 10,
  actual: null,
  pass: false,
});

const WITH_CHECKS = runResultFixture({
  checks: {
    passes: 19,
    fails: 1,
    rate: 0.95,
    by_name: {
      'status is 200': { passes: 10, fails: 0 },
      'has <token> & "id"': { passes: 9, fails: 1 },
    },
  },
});

/** Attribute values of every element named `tag`, as objects. */
function elements(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${tag}\\s([^>]*?)/?>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/(\w[\w-]*)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}

t.test('failure messages: actual vs expected, or no data', (t) => {
  t.equal(thresholdFailureMessage(EXAMPLE_THRESHOLDS[1]!), 'actual 0.05, expected < 0.01');
  t.equal(thresholdFailureMessage(NO_DATA), 'no data, expected < 10');
  t.equal(
    thresholdFailureMessage(thresholdFixture({ actual: 312.34567, pass: false })),
    'actual 312.346, expected < 300',
  );
  t.equal(
    thresholdFailureMessage(
      thresholdFixture({ operator: '>=', expected: 0.999, actual: 0.99812, pass: false }),
    ),
    'actual 0.998, expected >= 0.999',
  );
  t.end();
});

t.test('one test case per threshold, in order; failures only on failed ones', (t) => {
  const xml = renderJunitReport(
    runReportFixture(runResultFixture(), [...EXAMPLE_THRESHOLDS, NO_DATA]),
  );
  t.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="barrage"'));
  t.same(elements(xml, 'testsuites'), [
    { name: 'barrage', tests: '3', failures: '2', errors: '0', skipped: '0', time: '10.000' },
  ]);
  t.same(elements(xml, 'testsuite'), [
    {
      name: 'barrage thresholds',
      tests: '3',
      failures: '2',
      errors: '0',
      skipped: '0',
      time: '10.000',
      timestamp: '2026-01-02T03:04:05',
    },
  ]);
  t.same(
    elements(xml, 'testcase').map((c) => [c.name, c.classname]),
    [
      ['http_req_duration:p95 &lt; 300', 'barrage.thresholds'],
      ['http_req_failed:rate &lt; 0.01', 'barrage.thresholds'],
      ['ws_connecting:p95 &lt; 10', 'barrage.thresholds'],
    ],
  );
  t.same(
    elements(xml, 'failure').map((f) => [f.message, f.type]),
    [
      ['actual 0.05, expected &lt; 0.01', 'threshold'],
      ['no data, expected &lt; 10', 'threshold'],
    ],
  );
  t.match(
    xml,
    /<testcase name="http_req_duration:p95 &lt; 300" classname="barrage.thresholds"\/>/,
    'a pass has no child',
  );
  t.match(
    xml,
    /<system-out>target: http:\/\/127\.0\.0\.1:8080\nload: 10 workers, 10s\nrequests: 1000 \(990 successful, 10 failed\)/,
  );
  t.end();
});

t.test('no thresholds: an empty, valid suite', (t) => {
  const xml = renderJunitReport(runReportFixture());
  t.same(
    elements(xml, 'testsuite').map((s) => [s.name, s.tests, s.failures]),
    [['barrage thresholds', '0', '0']],
  );
  t.same(elements(xml, 'testcase'), []);
  t.end();
});

t.test('checks: a second suite, one case per check, failed when any evaluation failed', (t) => {
  const xml = renderJunitReport(runReportFixture(WITH_CHECKS, EXAMPLE_THRESHOLDS));
  t.same(
    elements(xml, 'testsuite').map((s) => [s.name, s.tests, s.failures]),
    [
      ['barrage thresholds', '2', '1'],
      ['barrage checks', '2', '1'],
    ],
  );
  t.same(
    elements(xml, 'testsuites').map((s) => [s.tests, s.failures]),
    [['4', '2']],
  );
  t.match(xml, '<testcase name="status is 200" classname="barrage.checks"/>');
  t.match(
    xml,
    '<testcase name="has &lt;token&gt; &amp; &quot;id&quot;" classname="barrage.checks">\n      <failure message="failed 1 of 10 times" type="check">',
  );
  t.end();
});

t.test('XML escaping: markup characters, and characters XML 1.0 cannot carry', (t) => {
  t.equal(escapeXml(`a<b>&"c"'d'`), 'a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
  t.equal(escapeXml('tab\tnl\ncr\r'), 'tab\tnl\ncr\r', 'allowed whitespace kept');
  t.equal(escapeXml('bell\u0007 nul\u0000 esc\u001b'), 'bell\uFFFD nul\uFFFD esc\uFFFD');
  t.equal(escapeXml('lone \uD800 pair \u{1F600}'), 'lone \uFFFD pair \u{1F600}');
  t.equal(escapeXml('\uFFFE\uFFFF'), '\uFFFD\uFFFD');
  t.end();
});

t.test(
  'valid against the common JUnit schema (xmllint)',
  { skip: xmllintSkip(process.env) },
  async (t) => {
    const dir = t.testdir();
    const weird = runResultFixture({
      checks: {
        passes: 1,
        fails: 1,
        rate: 0.5,
        by_name: { 'ctl\u0001 </failure> ]]>': { passes: 1, fails: 1 } },
      },
      interrupted: true,
    });
    const reports = {
      thresholds: runReportFixture(runResultFixture(), [...EXAMPLE_THRESHOLDS, NO_DATA]),
      none: runReportFixture(),
      checks: runReportFixture(WITH_CHECKS, EXAMPLE_THRESHOLDS),
      weird: runReportFixture(weird, [NO_DATA]),
    };
    for (const [name, report] of Object.entries(reports)) {
      const check = checkJunitSchema(renderJunitReport(report), dir, `${name}.xml`);
      t.ok(check.ok, `${name}: ${check.messages}`);
    }
    const broken = renderJunitReport(reports.thresholds).replace(/ name="ws_connecting[^"]*"/, '');
    t.notOk(
      checkJunitSchema(broken, dir, 'broken.xml').ok,
      'the schema rejects a test case without a name',
    );
    const badCount = renderJunitReport(reports.none).replace('tests="0"', 'tests="-1"');
    t.notOk(checkJunitSchema(badCount, dir, 'count.xml').ok, 'and a negative count');
  },
);
