/**
 * The JUnit XML report (`--junit`, `report.junit`): thresholds (and checks) as test cases, so that
 * CI systems (Jenkins, GitLab, Azure DevOps, GitHub test reporters) show a load test's gates as
 * tests. The common JUnit format, as those tools read it:
 *
 *   <testsuites name="barrage" tests failures errors="0" skipped="0" time>
 *     <testsuite name="barrage thresholds" tests failures errors="0" skipped="0" time timestamp>
 *       <testcase name="http_req_duration:p95 &lt; 300" classname="barrage.thresholds"/>
 *       <testcase name="http_req_failed:rate &lt; 0.01" classname="barrage.thresholds">
 *         <failure message="actual 0.05, expected &lt; 0.01" type="threshold">…</failure>
 *       </testcase>
 *       <system-out>the run's figures</system-out>
 *     </testsuite>
 *     <testsuite name="barrage checks" …>    only when the run had checks: one case per check name,
 *   </testsuites>                             failed when any evaluation of it failed
 *
 * The thresholds suite is always there, with tests="0" when none are defined, so that a CI step
 * that expects the file finds a valid one. `time` is the run's duration in seconds; test cases have
 * none of their own (thresholds are evaluated once, at the end); `timestamp` is the start in UTC,
 * written without a zone designator as Ant's formatter does. A threshold whose metric got no
 * data fails with "no data" (DESIGN.md §6); the `abort_on_fail` threshold that stopped the run adds
 * "; it stopped the run: <expression> failed at 1.50 s" to its message, and the system-out says so;
 * the system-out also lists the result's warnings (a partial merge's label among them).
 * Text is escaped for XML 1.0, and characters XML 1.0
 * cannot carry at all (most control characters) are replaced by U+FFFD.
 */
import type { ChecksResult, RunResult } from '../../runtime/metrics/run-result.js';
import type { ThresholdAbort } from '../../runtime/thresholds/abort-on-fail.js';
import type { ThresholdResult } from '../../runtime/thresholds/threshold-result.js';
import {
  abortText,
  formatMs,
  formatValue,
  thresholdActual,
  thresholdBaseline,
  thresholdExpected,
} from './report-figures.js';
import type { RunReport } from './run-report.js';

/** The name of the thresholds suite. */
export const THRESHOLDS_SUITE = 'barrage thresholds';
/** The name of the checks suite. */
export const CHECKS_SUITE = 'barrage checks';

interface TestCase {
  readonly name: string;
  readonly classname: string;
  /** Undefined when the case passed. */
  readonly failure:
    { readonly message: string; readonly type: string; readonly detail: string } | undefined;
}

interface Suite {
  readonly name: string;
  readonly cases: readonly TestCase[];
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * `text` safe in XML 1.0 content and attribute values: markup characters escaped; characters
 * outside XML 1.0's Char production (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
 * [#x10000-#x10FFFF]) — control characters, lone surrogates, U+FFFE/U+FFFF — replaced by U+FFFD.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** The failure message of a threshold: "actual 0.05, expected < 0.01" or "no data, …". */
export function thresholdFailureMessage(result: ThresholdResult): string {
  const actual = result.actual === null ? 'no data' : `actual ${thresholdActual(result)}`;
  return `${actual}, expected ${thresholdExpected(result)}`;
}

/**
 * A threshold's test case; the one that stopped the run (`aborted`, matched by expression) says so
 * in its failure message.
 */
function thresholdCase(result: ThresholdResult, aborted: ThresholdAbort | undefined): TestCase {
  const stopped =
    aborted?.threshold === result.threshold ? `; it stopped the run: ${abortText(aborted)}` : '';
  const detail = [
    `metric: ${result.metric}`,
    `aggregate: ${result.aggregate}`,
    `actual: ${thresholdActual(result)}`,
    `expected: ${thresholdExpected(result)}`,
    ...(result.baseline === undefined ? [] : [`baseline: ${thresholdBaseline(result)}`]),
  ].join('\n');
  return {
    name: result.threshold,
    classname: 'barrage.thresholds',
    failure: result.pass
      ? undefined
      : { message: `${thresholdFailureMessage(result)}${stopped}`, type: 'threshold', detail },
  };
}

function checkCases(checks: ChecksResult): TestCase[] {
  return Object.entries(checks.by_name).map(([name, c]) => ({
    name,
    classname: 'barrage.checks',
    failure:
      c.fails === 0
        ? undefined
        : {
            message: `failed ${c.fails} of ${c.passes + c.fails} times`,
            type: 'check',
            detail: `passes: ${c.passes}\nfails: ${c.fails}`,
          },
  }));
}

/** The run's figures, for the thresholds suite's system-out. */
function runSummary(report: RunReport): string {
  const r: RunResult = report.result;
  const lines = [
    `target: ${report.meta.target ?? 'n/a'}`,
    `load: ${report.meta.load}`,
    `requests: ${r.total} (${r.successes} successful, ${r.failures} failed)`,
    `requests/sec: ${formatValue(r.requests_per_sec)}`,
    `latency ms: p50 ${formatMs(r.latency_ms?.p50)}, p95 ${formatMs(r.latency_ms?.p95)}, p99 ${formatMs(r.latency_ms?.p99)}, max ${formatMs(r.latency_ms?.max)}`,
  ];
  const aborted = report.thresholds?.aborted;
  if (aborted !== undefined) lines.push(`aborted: ${abortText(aborted)} (abort_on_fail)`);
  else if (r.interrupted) lines.push('interrupted: the run was stopped early');
  // A partial merge's label among them: which segments the figures lack.
  for (const warning of r.warnings ?? []) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

function counts(cases: readonly TestCase[]): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  return `tests="${cases.length}" failures="${failures}" errors="0" skipped="0"`;
}

function caseXml(c: TestCase): string {
  const head = `    <testcase name="${escapeXml(c.name)}" classname="${c.classname}"`;
  if (c.failure === undefined) return `${head}/>`;
  const { message, type, detail } = c.failure;
  return [
    `${head}>`,
    `      <failure message="${escapeXml(message)}" type="${type}">${escapeXml(detail)}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function suiteXml(suite: Suite, time: string, timestamp: string, out?: string): string {
  const lines = [
    `  <testsuite name="${suite.name}" ${counts(suite.cases)} time="${time}" timestamp="${timestamp}">`,
    ...suite.cases.map(caseXml),
  ];
  if (out !== undefined) lines.push(`    <system-out>${escapeXml(out)}</system-out>`);
  lines.push('  </testsuite>');
  return lines.join('\n');
}

/** The JUnit XML of a run, ending with a newline. */
export function renderJunitReport(report: RunReport): string {
  const suites: Suite[] = [
    {
      name: THRESHOLDS_SUITE,
      cases: (report.thresholds?.results ?? []).map((t) =>
        thresholdCase(t, report.thresholds?.aborted),
      ),
    },
  ];
  if (report.result.checks !== undefined)
    suites.push({ name: CHECKS_SUITE, cases: checkCases(report.result.checks) });
  const time = (report.result.duration_ms / 1000).toFixed(3);
  // The timestamp is ISO 8601 without a zone designator, as Ant's formatter writes it; ours is UTC.
  const timestamp = report.result.started_at.replace(/(\.\d+)?Z$/, '');
  const all = suites.flatMap((s) => s.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="barrage" ${counts(all)} time="${time}">`,
    ...suites.map((s, i) => suiteXml(s, time, timestamp, i === 0 ? runSummary(report) : undefined)),
    '</testsuites>',
    '',
  ].join('\n');
}
