/**
 * The one path from figures to reports, shared by `run` and `merge` so both print the same for
 * the same data: a run becomes a RawResult (what `--raw` writes), and a RawResult — one run's,
 * or several segments' merged — becomes the RunReport every renderer reads.
 */
import type { RunFailure } from '../model/errors/run-failure.js';
import type { Loaded } from '../dsl/load-plan.js';
import type { Tags } from '../model/metrics/metric-registry.js';
import type { SampleTable } from '../runtime/metrics/sample-select.js';
import type { ChecksSnapshot, ShardSnapshot } from '../runtime/metrics/snapshot.js';
import { summarize } from '../runtime/metrics/summarize.js';
import {
  planFingerprint,
  RAW_FORMAT,
  RAW_VERSION,
  type HttpDebugCounts,
  type RawResult,
} from '../runtime/raw-result.js';
import type { ExchangeRecord } from '../model/exchange-record.js';
import type { ThresholdAbort } from '../runtime/thresholds/abort-on-fail.js';
import { sumChecksByName } from '../runtime/metrics/merge-stats.js';
import { tagBreakdown } from '../runtime/metrics/tag-summary.js';
import { evaluateThresholds } from '../runtime/thresholds/evaluate.js';
import { endpointTable } from './endpoint-table.js';
import { describeRunLoad } from './render/scenario-view.js';
import type { Redactor } from './render/redact.js';
import { redactExchange } from './render/redact-exchange.js';
import type { RunReport } from './render/run-report.js';

/** Why a run ended before its plan did: a failure, or an `abort_on_fail` threshold. */
export interface RunEnding {
  readonly failure?: RunFailure | undefined;
  readonly aborted?: ThresholdAbort | undefined;
  /** The HTTP debug log's counts (the segments' drops included); undefined when it was off. */
  readonly httpDebug?: HttpDebugCounts | undefined;
}

/**
 * A finished (or interrupted) run of this process as a raw result, redacted: every report, the
 * raw file and a later merge read only this. Endpoint names (a default name is the url, which may
 * hold userinfo or a ${ENV} value) and threshold filters on them are redacted alike, so they
 * still match.
 */
export function toRawResult(
  loaded: Loaded,
  snapshot: ShardSnapshot,
  ending: RunEnding,
  redactor: Redactor,
): RawResult {
  const { plan } = loaded;
  const { failure, aborted, httpDebug } = ending;
  const text = (s: string): string => redactor.text(s);
  const tags = (of: Tags): Tags =>
    Object.fromEntries(Object.entries(of).map(([k, v]) => [k, text(v)]));
  const table = endpointTable(plan, snapshot);
  const names = table.names;
  return {
    format: RAW_FORMAT,
    version: RAW_VERSION,
    fingerprint: planFingerprint(plan),
    segment: plan.segment,
    endpointNames: names.map(text),
    endpointTags: table.endpoints.map(tags),
    runTags: tags(table.run),
    summaryBy: plan.report.summaryBy,
    scenarioTags: Object.fromEntries(
      Object.entries(table.scenarios).map(([name, own]) => [name, tags(own)]),
    ),
    thresholds: plan.thresholds.map((spec) => ({
      ...spec,
      expression: text(spec.expression),
      tags: Object.fromEntries(Object.entries(spec.tags).map(([k, v]) => [k, text(v)])),
    })),
    metrics: plan.metrics,
    meta: {
      target: plan.target === undefined ? undefined : text(plan.target),
      ...describeRunLoad(plan),
    },
    config: redactor.tree(loaded.raw) as Record<string, unknown>,
    snapshot: redactSnapshot(snapshot, text, tags, (record) => redactExchange(record, redactor)),
    // The raw file keeps the failure's message (its `fatal`), as it always has.
    fatal: failure === undefined ? undefined : text(failure.message),
    ...(aborted === undefined
      ? {}
      : { aborted: { threshold: text(aborted.threshold), atMs: aborted.atMs } }),
    ...(httpDebug === undefined ? {} : { httpDebug }),
  };
}

/**
 * A snapshot with its discovered endpoint names and tags redacted, its check names (a scenario
 * builds them, from `env` too), the tags of its custom series (a call's tags may hold what a
 * secret became) and its sample failures, its scenarios' alike.
 */
function redactSnapshot(
  snapshot: ShardSnapshot,
  text: (s: string) => string,
  tags: (of: Tags) => Tags,
  record: (of: ExchangeRecord) => ExchangeRecord,
): ShardSnapshot {
  const custom = snapshot.custom;
  const scenarios = snapshot.scenarios;
  const samples = snapshot.sampleFailures;
  return {
    ...snapshot,
    ...(samples === undefined ? {} : { sampleFailures: samples.map(record) }),
    checks: snapshot.checks === undefined ? undefined : redactChecks(snapshot.checks, text, tags),
    ...(snapshot.endpointNames === undefined
      ? {}
      : {
          endpointNames: snapshot.endpointNames.map(text),
          endpointTags: (snapshot.endpointTags ?? []).map(tags),
        }),
    ...(custom === undefined
      ? {}
      : {
          custom: Object.fromEntries(
            Object.entries(custom).map(([name, metric]) => [
              name,
              { ...metric, series: metric.series.map((s) => ({ ...s, tags: tags(s.tags) })) },
            ]),
          ),
        }),
    ...(scenarios === undefined
      ? {}
      : {
          scenarios: Object.fromEntries(
            Object.entries(scenarios).map(([name, own]) => [
              name,
              redactSnapshot(own, text, tags, record),
            ]),
          ),
        }),
  };
}

/** Checks with their names and tags redacted; names that become one are counted as one. */
function redactChecks(
  checks: ChecksSnapshot,
  text: (s: string) => string,
  tags: (of: Tags) => Tags,
): ChecksSnapshot {
  // fromEntries defines its keys: a check named __proto__ stays a plain key.
  const byName = Object.fromEntries(
    sumChecksByName(Object.entries(checks.byName).map(([name, counts]) => [text(name), counts])),
  );
  const tagged = checks.tagged?.map((c) => ({ ...c, name: text(c.name), tags: tags(c.tags) }));
  return { ...checks, byName, ...(tagged === undefined ? {} : { tagged }) };
}

/** Tags the reports already show a section of each value of: no breakdown for them. */
const SHOWN_APART: ReadonlySet<string> = new Set(['endpoint', 'check', 'scenario']);

/**
 * The tags to break requests down by: `summary_by`, then those the request thresholds filter on,
 * each once, less those the reports already show apart.
 */
function breakdownKeys(raw: RawResult): string[] {
  const asked = raw.thresholds
    .filter((t) => REQUEST_METRICS.has(t.metric))
    .flatMap((t) => Object.keys(t.tags));
  return [...new Set([...raw.summaryBy, ...asked])].filter((key) => !SHOWN_APART.has(key));
}

const REQUEST_METRICS: ReadonlySet<string> = new Set([
  'http_req_duration',
  'http_req_failed',
  'http_requests',
]);

/** The tags of a raw result's samples, as thresholds and breakdowns select them. */
export function tagTableOf(raw: RawResult): SampleTable {
  return {
    names: raw.endpointNames,
    run: raw.runTags,
    endpoints: raw.endpointTags,
    scenarios: raw.scenarioTags,
  };
}

/** Summarizes, evaluates the thresholds (undefined when none are defined) and assembles. */
export function reportFromRaw(raw: RawResult): RunReport {
  const table = tagTableOf(raw);
  const keys = breakdownKeys(raw);
  const result = {
    ...summarize(raw.snapshot, raw.endpointNames, raw.metrics),
    ...(keys.length === 0
      ? {}
      : { by_tag: keys.map((key) => tagBreakdown(raw.snapshot, table, key)) }),
  };
  const thresholds = evaluateThresholds(raw.thresholds, raw.snapshot, raw.endpointNames, table);
  const passed = thresholds.filter((t) => t.pass).length;
  return {
    result,
    thresholds:
      raw.thresholds.length === 0
        ? undefined
        : {
            total: thresholds.length,
            passed,
            failed: thresholds.length - passed,
            results: thresholds,
            ...(raw.aborted === undefined ? {} : { aborted: raw.aborted }),
          },
    meta: raw.meta,
    config: raw.config,
    ...(raw.httpDebug === undefined ? {} : { httpDebug: raw.httpDebug }),
  };
}
