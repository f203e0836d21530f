/**
 * The shape of a raw result file (`run --raw`) as `barrage merge` reads it back: a zod schema
 * checked before anything merges, so a truncated, corrupted or crafted file is an error naming the
 * file and the field instead of a crash deep in the merge. It lives in cli/, the edge that reads
 * the file: runtime/ (which defines RawResult) reads only plain data and may not import zod, and
 * dsl/ is the room of what the user writes as configuration. The schema's output type is checked
 * against RawResult, so the two cannot drift apart.
 */
import * as z from 'zod';
import type { ConfigIssue } from '../dsl/issues.js';
import { describeValue } from '../dsl/schema/zod-issues.js';
import { METRIC_KINDS, METRIC_UNITS } from '../model/metrics/metric-registry.js';
import { trendEncodingProblem } from '../runtime/metrics/custom-histogram.js';
import { OTHER_OUTCOME } from '../runtime/metrics/name-bound.js';
import { MAX_SAMPLES } from '../runtime/metrics/sample-failures.js';
import { count, counts, figureShape, histogram, secondFigureShape } from './raw-figure-schema.js';
import { RAW_FORMAT, RAW_VERSION, type RawResult } from '../runtime/raw-result.js';

/** A time since dispatch start, µs (the clock's, not always whole). */
const micros = z.number({ error: 'a time in µs' }).min(0, { error: 'a time ≥ 0' });

/** Issues listed per file at most (a crafted file may break a million fields). */
const MAX_ISSUES = 20;
/** Deepest nesting of the configuration a report walks (as for configuration files). */
const MAX_DEPTH = 64;

/** True when no list or mapping in `root` is nested deeper than `max`; without recursion. */
function depthAtMost(root: unknown, max: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return false;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return true;
}

/** What a custom trend's histogram is expected to be (custom-histogram.ts). */
const TREND_HISTOGRAM = "a compressed HDR histogram of barrage's custom trend layout";
const trendHistogram = z.string({ error: TREND_HISTOGRAM }).superRefine((s, ctx) => {
  const problem = trendEncodingProblem(s);
  if (problem !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: TREND_HISTOGRAM,
      input: s,
      params: { actual: problem },
    });
});

const segmentRef = z
  .strictObject(
    { index: count.min(1, { error: 'a segment index ≥ 1' }), count: count.min(1) },
    { error: 'a segment { index, count }' },
  )
  .refine((s) => s.index <= s.count, { error: 'a segment index at most the segment count' });

const ws = z.strictObject(
  {
    sessions: count,
    failures: count,
    msgsSent: count,
    msgsReceived: count,
    msgsTaken: count,
    listenMsgs: count,
    listenUs: z.number().min(0),
    stepFailures: counts,
    connecting: histogram,
    rtt: histogram,
    session: histogram,
  },
  { error: 'WebSocket figures' },
);

const outcome = z.strictObject(
  {
    status: z.int({ error: 'a status code' }).min(OTHER_OUTCOME).max(999),
    error: z.string().exactOptional(),
    retry: z.literal(true, { error: 'true (a retry)' }).exactOptional(),
    redirect: z.literal(true, { error: "true (a redirect's hop)" }).exactOptional(),
    requests: count,
    latency: histogram,
  },
  { error: "an outcome's figures { status, error, retry, redirect, requests, latency }" },
);

/** Tags by key. */
const tags = z.record(z.string(), z.string(), { error: 'tags by key' });

const endpoint = z.strictObject(
  {
    requests: count,
    failures: count,
    latency: histogram,
    statusCodes: counts,
    errors: counts,
    // Raw files written before requests were kept by outcome have none.
    outcomes: z.array(outcome, { error: 'a list of outcomes' }).default([]),
    ws: ws.exactOptional(),
    protocols: z
      .int({ error: 'protocol bits' })
      .min(1, { error: 'protocol bits' })
      .max(3, { error: 'protocol bits' })
      .exactOptional(),
    seconds: z
      .array(
        z.strictObject(
          { second: count, requests: count, failures: count, latencyUs: count },
          { error: "an endpoint's second { second, requests, failures, latencyUs }" },
        ),
        { error: "an endpoint's requests by second" },
      )
      .exactOptional(),
    ...figureShape('endpoint'),
  },
  { error: "an endpoint's figures" },
);

/** A second's figures; those kept second by second (FigureSpec.perSecond) absent until counted. */
const second = z.strictObject(
  {
    second: count,
    requests: count,
    failures: count,
    bytesIn: count,
    latency: histogram,
    ...secondFigureShape(),
  },
  { error: "a second's figures" },
);

/** One tag set's samples of a custom metric (runtime/metrics/custom-snapshot.ts). */
const customSeries = z
  .strictObject(
    {
      tags,
      samples: count.min(1, { error: 'at least one sample' }),
      sum: z.number({ error: 'a number' }),
      trues: count,
      last: z.number({ error: 'a number' }),
      lastAt: z.number({ error: 'a time, epoch ms' }).min(0),
      min: z.number({ error: 'a number' }),
      max: z.number({ error: 'a number' }),
      histogram: trendHistogram,
    },
    { error: "a custom metric's series" },
  )
  .refine((s) => s.trues <= s.samples && s.min <= s.max, {
    error: 'at most as many true samples as samples, and min ≤ max',
  });

/** A custom metric's series: a trend's, and only a trend's, carry a histogram. */
const customMetric = z
  .strictObject(
    {
      kind: z.enum(METRIC_KINDS, { error: `one of ${METRIC_KINDS.join(', ')}` }),
      series: z.array(customSeries, { error: 'a list of series' }),
      folded: count,
      rejected: count,
    },
    { error: "a custom metric's figures { kind, series, folded, rejected }" },
  )
  .refine((m) => m.series.every((s) => (s.histogram !== '') === (m.kind === 'trend')), {
    error: "a histogram in every series of a trend and in no other kind's",
    path: ['series'],
  });

/** A body of a request record (model/exchange-record.ts). */
const CAPTURED_BODY = {
  body: z.string({ error: 'a body as text, or null' }).nullable(),
  body_truncated: z.literal(true, { error: 'true (the body is cut)' }).exactOptional(),
  body_bytes: count,
};

const recordedHeaders = z.record(z.string(), z.string(), { error: 'headers by name' });

/** A request record of the sample failures. */
const exchangeRecord = z.strictObject(
  {
    time: z.iso.datetime({ error: 'an ISO 8601 time' }),
    scenario: z.string().exactOptional(),
    endpoint: z.string(),
    vu: count.exactOptional(),
    method: z.string(),
    url: z.string(),
    request: z.strictObject(
      { headers: recordedHeaders, ...CAPTURED_BODY },
      { error: 'a request { headers, body, body_truncated, body_bytes }' },
    ),
    response: z
      .strictObject(
        { status: z.int().min(0).max(999), headers: recordedHeaders, ...CAPTURED_BODY },
        { error: 'a response { status, headers, body, body_truncated, body_bytes }' },
      )
      .nullable(),
    timings: z.strictObject(
      { waiting_ms: z.number().min(0).nullable(), duration_ms: z.number().min(0) },
      { error: 'timings { waiting_ms, duration_ms }' },
    ),
    error_kind: z.string().nullable(),
    error: z.string().exactOptional(),
  },
  { error: 'a request record' },
);

/** A snapshot's fields; a scenario's own snapshot has them all but `scenarios`. */
const SNAPSHOT_FIELDS = {
  version: z.literal(1, { error: 'snapshot version 1' }),
  segments: z.array(segmentRef, { error: 'a list of segments' }),
  startedAt: count,
  elapsedMs: z.number({ error: 'a duration in ms' }).min(0, { error: 'a duration ≥ 0' }),
  active: z
    .tuple([micros, micros], { error: 'an active span [first send, last end], µs' })
    .refine(([from, to]) => from <= to, { error: 'a span that ends after it starts' })
    .readonly()
    .exactOptional(),
  iterations: count,
  requests: count,
  successes: count,
  failures: count,
  late: count,
  dropped: count,
  retries: count,
  // Raw files written before redirects were followed and bodies decoded have neither.
  redirects: count.default(0),
  bytesIn: count,
  bytesDecoded: count.default(0),
  bytesOut: count,
  statusCodes: counts,
  errors: counts,
  // Raw files written before unsent requests were counted apart have neither.
  unsent: counts.default({}),
  iterationErrors: counts.default({}),
  latency: histogram,
  intended: histogram,
  // Absent without samples, and in raw files written before these were measured.
  ...figureShape('run'),
  vusMax: count.exactOptional(),
  vus: z
    .array(z.strictObject({ second: count, active: count }), {
      error: 'active virtual users by second',
    })
    .exactOptional(),
  endpoints: z.array(endpoint, { error: 'a list of endpoint figures' }),
  endpointNames: z.array(z.string(), { error: 'a list of names' }).exactOptional(),
  endpointTags: z.array(tags, { error: "a list of endpoints' tags" }).exactOptional(),
  series: z.array(second, { error: 'a list of seconds' }),
  ws: ws.optional(),
  checks: z
    .strictObject(
      {
        passes: count,
        fails: count,
        byName: z.record(z.string(), z.strictObject({ passes: count, fails: count })),
        tagged: z
          .array(z.strictObject({ name: z.string(), tags, passes: count, fails: count }), {
            error: 'check counts by name and tags',
          })
          .exactOptional(),
      },
      { error: 'check counts' },
    )
    .optional(),
  auth: z
    .strictObject(
      { fetches: count, failures: count, latency: histogram },
      { error: 'token fetch figures' },
    )
    .optional(),
  interrupted: z.boolean({ error: 'true or false' }),
  custom: z.record(z.string(), customMetric, { error: 'custom metrics by name' }).exactOptional(),
  foldedNames: count.exactOptional(),
  sampleFailures: z
    .array(exchangeRecord, { error: 'a list of request records' })
    .max(MAX_SAMPLES, { error: `at most ${MAX_SAMPLES} sample failures` })
    .exactOptional(),
  httpDebugDropped: count.exactOptional(),
};

/** As many endpoint names as endpoint figures, when the names are there. */
const NAMES_MATCH = {
  check: (s: { endpointNames?: readonly string[]; endpoints: readonly unknown[] }) =>
    s.endpointNames === undefined || s.endpointNames.length === s.endpoints.length,
  message: { error: 'as many endpoint names as endpoint figures', path: ['endpointNames'] },
};

/** A scenario's own snapshot (scenarios are not nested). */
const scenarioSnapshot = z
  .strictObject(SNAPSHOT_FIELDS, { error: 'a snapshot' })
  .refine(NAMES_MATCH.check, NAMES_MATCH.message)
  // JSON leaves out what was undefined; the snapshot type has the keys.
  .transform((s) => ({ ...s, ws: s.ws, checks: s.checks, auth: s.auth }));

const snapshot = z
  .strictObject(
    {
      ...SNAPSHOT_FIELDS,
      scenarios: z
        .record(z.string(), scenarioSnapshot, { error: 'snapshots by scenario name' })
        .exactOptional(),
    },
    { error: 'a snapshot' },
  )
  .refine(NAMES_MATCH.check, NAMES_MATCH.message)
  .transform((s) => ({ ...s, ws: s.ws, checks: s.checks, auth: s.auth }));

const threshold = z.strictObject(
  {
    expression: z.string(),
    aliases: z.array(z.strictObject({ written: z.string(), as: z.string() })).exactOptional(),
    metric: z.string(),
    tags: z.record(z.string(), z.string()),
    aggregate: z.string(),
    percentile: z.number().gt(0).max(100).exactOptional(),
    operator: z.enum(['<', '<=', '>', '>=', '==']),
    expected: z.number(),
    abortOnFail: z.strictObject({ delayMs: z.number().min(0) }).exactOptional(),
    relative: z
      .strictObject({ factor: z.number(), offset: z.number(), baseline: z.number() })
      .exactOptional(),
  },
  { error: 'a threshold' },
);

/** A raw result file; its output type is RawResult. */
export const rawResultSchema = z
  .strictObject(
    {
      format: z.literal(RAW_FORMAT, { error: `"${RAW_FORMAT}" (a file of barrage run --raw)` }),
      version: z.literal(RAW_VERSION, { error: `raw result version ${RAW_VERSION}` }),
      fingerprint: z.string().regex(/^[0-9a-f]{32}$/, { error: '32 hexadecimal digits' }),
      segment: segmentRef,
      endpointNames: z.array(z.string(), { error: 'a list of endpoint names' }),
      // Raw files written before endpoints had tags have none.
      endpointTags: z.array(tags, { error: "a list of endpoints' tags" }).default([]),
      runTags: tags.default({}),
      summaryBy: z.array(z.string(), { error: 'a list of tag keys' }).default([]),
      scenarioTags: z.record(z.string(), tags, { error: "scenarios' tags by name" }).default({}),
      thresholds: z.array(threshold, { error: 'a list of thresholds' }),
      // Raw files written before custom metrics have none.
      metrics: z
        .record(
          z.string(),
          z.strictObject(
            {
              kind: z.enum(METRIC_KINDS),
              unit: z.enum(METRIC_UNITS),
              description: z.string(),
            },
            { error: 'a custom metric { kind, unit, description }' },
          ),
          { error: 'custom metrics by name' },
        )
        .default({}),
      meta: z
        .strictObject(
          { target: z.string().optional(), concurrency: count, load: z.string() },
          { error: 'the run description { target, concurrency, load }' },
        )
        .transform((meta) => ({ ...meta, target: meta.target })),
      config: z
        .record(z.string(), z.unknown(), { error: 'the effective configuration' })
        .refine((config) => depthAtMost(config, MAX_DEPTH), {
          error: `the effective configuration, nested at most ${MAX_DEPTH} levels`,
        }),
      snapshot,
      fatal: z.string().optional(),
      aborted: z
        .strictObject(
          { threshold: z.string(), atMs: z.number().min(0) },
          { error: 'the threshold that stopped the run { threshold, atMs }' },
        )
        .exactOptional(),
      httpDebug: z
        .strictObject(
          { written: count, dropped: count },
          { error: 'the HTTP debug log { written, dropped }' },
        )
        .exactOptional(),
      startAt: count.exactOptional(),
      lateStartMs: count.exactOptional(),
      partial: z
        .array(
          z.strictObject(
            { index: count.min(1), count: count.min(1), reason: z.string() },
            { error: 'a missing segment { index, count, reason }' },
          ),
        )
        .exactOptional(),
      stops: z
        .array(
          z.strictObject(
            { signal: z.string(), segment: segmentRef },
            { error: 'a stop { signal, segment }' },
          ),
        )
        .exactOptional(),
    },
    { error: 'a raw result object' },
  )
  .refine(
    (raw) =>
      raw.snapshot.endpointNames !== undefined ||
      raw.snapshot.endpoints.length === raw.endpointNames.length,
    { error: 'as many endpoint figures as endpointNames', path: ['snapshot', 'endpoints'] },
  )
  .transform((raw) => ({ ...raw, fatal: raw.fatal })) satisfies z.ZodType<RawResult>;

/** The raw result in `value`, or ConfigIssues naming `file` and each wrong field's JSON path. */
export function parseRawResult(
  file: string,
  value: unknown,
): { ok: true; raw: RawResult } | { ok: false; issues: ConfigIssue[] } {
  const parsed = rawResultSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, raw: parsed.data };
  const issues = parsed.error.issues.slice(0, MAX_ISSUES).map((issue): ConfigIssue => ({
    code: 'invalid_value',
    source: { kind: 'file', file },
    path: issue.path.filter((p): p is string | number => typeof p !== 'symbol'),
    expected: issue.message,
    actual: actualOf(issue),
  }));
  const left = parsed.error.issues.length - issues.length;
  if (left > 0)
    issues.push({
      code: 'invalid_value',
      source: { kind: 'file', file },
      path: [],
      expected: 'a raw result written by barrage run --raw',
      actual: `${left} more problems`,
    });
  return { ok: false, issues };
}

/** What the file holds: a histogram's problem, else a short rendering of the value. */
function actualOf(issue: z.core.$ZodIssue): string {
  const params =
    issue.code === 'custom' ? (issue.params as { actual?: string } | undefined) : undefined;
  return params?.actual ?? describeValue(issue.input);
}
