/**
 * Reads one side of `barrage compare`: a JSON result (`--json`, `--json-output`) or a raw result
 * (`--raw`), which is summarized as `merge` summarizes it, into the JSON result's form. A JSON
 * result is checked against a zod schema of the parts compare reads, so a file that is not a
 * result is an error naming the file and the field, never a crash further on.
 */
import * as z from 'zod';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import { describeValue } from '../../dsl/schema/zod-issues.js';
import { HIGHEST_US } from '../../runtime/metrics/histogram.js';
import { RAW_FORMAT, type RawResult } from '../../runtime/raw-result.js';
import { reportFromRaw } from '../run-report-builder.js';
import { parseRawResult } from '../raw-result-schema.js';
import { readResultJson } from '../result-json-file.js';
import { toJsonResult } from '../render/json-report.js';

/** Issues listed per file at most. */
const MAX_ISSUES = 20;
/**
 * Endpoints a result may list: more than any run records (500 configured endpoints, or a
 * scenario's 100 request names per thread), so a crafted file cannot feed the comparison's
 * tables hundreds of thousands of rows (cli-table3 overflowed the stack at 100,000).
 */
export const MAX_RESULT_ENDPOINTS = 10_000;

/**
 * The figures' bounds: what a run can measure. A latency is at most the histogram's highest value
 * (an hour); a rate of requests at most a billion a second; a count a safe integer. A baseline's
 * figure past them (`p95_latency_ms: 1e308`) would set a limit that passes anything: refused,
 * naming the file and the key, as compare refuses it.
 */
const MAX_MS = HIGHEST_US / 1000;
const MAX_PER_SEC = 1e9;
const count = z
  .number()
  .int()
  .min(0, { error: 'a count ≥ 0' })
  .max(Number.MAX_SAFE_INTEGER, { error: `a count of at most ${Number.MAX_SAFE_INTEGER}` });
const msValue = z
  .number({ error: 'a finite latency in ms' })
  .min(0, { error: 'a latency ≥ 0 ms' })
  .max(MAX_MS, { error: `a latency of at most ${MAX_MS} ms, the longest barrage measures` });
const ms = msValue.nullable();
const latency = z
  .object({ min: msValue, max: msValue, mean: msValue })
  .extend({ p50: msValue, p90: msValue, p95: msValue, p99: msValue })
  .nullable();
const counts = z.record(z.string(), count);
const requests = z.object({ requests: count, failures: count, latency_ms: latency });
/** The LLM figures compare reads (docs/llm.md): its trends, output tokens and goodput. */
const llm = z.object({
  output_tokens: count,
  goodput: z.object({ count, total: count }),
  time_to_first_token_ms: latency,
  inter_token_latency_ms: latency,
  time_per_output_token_ms: latency,
  request_duration_ms: latency,
});

/** The figures of one run (or one scenario of it) that compare reads. */
const figuresSchema = z.object({
  total: count,
  failures: count,
  requests_per_sec: z
    .number()
    .min(0, { error: 'a rate ≥ 0' })
    .max(MAX_PER_SEC, { error: `at most ${MAX_PER_SEC} requests/s` }),
  p50_latency_ms: ms,
  p90_latency_ms: ms,
  p95_latency_ms: ms,
  p99_latency_ms: ms,
  mean_latency_ms: ms,
  duration_ms: z.number().optional(),
  llm: llm.optional(),
  errors: counts,
  status_codes: counts,
  endpoints: z
    .array(requests.extend({ name: z.string() }))
    .max(MAX_RESULT_ENDPOINTS, { error: `at most ${MAX_RESULT_ENDPOINTS} endpoints` }),
  by_tag: z
    .array(z.object({ key: z.string(), values: z.array(requests.extend({ value: z.string() })) }))
    .optional(),
  checks: z
    .object({ by_name: z.record(z.string(), z.object({ passes: count, fails: count })) })
    .optional(),
  series: z.array(
    z.object({
      second: z.number(),
      requests: count,
      failures: count,
      p50_ms: ms,
      p95_ms: ms,
      p99_ms: ms,
    }),
  ),
});

/** A run's figures as compare reads them, with its named scenarios' and its latency curve. */
const resultSchema = figuresSchema.extend({
  scenarios: z.record(z.string(), figuresSchema).optional(),
  latency_distribution: z.array(z.object({ percentile: z.number().min(0).max(100), ms: msValue })),
  /** When the run began (its provenance in the reports of a run judged against it). */
  started_at: z.iso.datetime({ offset: true, error: 'an ISO 8601 time' }).optional(),
});

/** One run's (or scenario's) figures. */
export type RunFigures = z.infer<typeof figuresSchema>;
/** A result as compare reads it. */
export type ResultFigures = z.infer<typeof resultSchema>;

/** What compare expects each file to be. */
const EXPECTED = 'a JSON result (--json) or a raw result (--raw) written by barrage';

/** A result file read: its figures, and the raw result itself when it was one. */
export interface ReadResult {
  readonly figures: ResultFigures;
  /** Present for a raw result: what the threshold evaluator can measure anything on. */
  readonly raw: RawResult | undefined;
}

/** Reads `file` (relative to `cwd`); throws ConfigError naming it when it is not a result. */
export function readResultFile(cwd: string, file: string): ReadResult {
  const source = { kind: 'file', file } as const;
  const issue = (actual: string, path: (string | number)[] = []): ConfigIssue => ({
    code: 'invalid_value',
    source,
    path,
    expected: EXPECTED,
    actual,
  });
  const read = readResultJson(cwd, file, 'result', EXPECTED);
  if (!read.ok) throw new ConfigError(read.error);
  let value = read.value;
  let raw: RawResult | undefined;
  if (
    typeof value === 'object' &&
    value !== null &&
    'format' in value &&
    value.format === RAW_FORMAT
  ) {
    const checked = parseRawResult(file, value);
    if (!checked.ok) throw new ConfigError(checked.issues);
    raw = checked.raw;
    value = toJsonResult(reportFromRaw(raw));
  }
  // Not a result at all (some other JSON document): one line, not a line per missing field.
  if (typeof value !== 'object' || value === null || !('total' in value))
    throw new ConfigError([issue(describeValue(value))]);
  const parsed = resultSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return { figures: parsed.data, raw };
  throw new ConfigError(
    parsed.error.issues.slice(0, MAX_ISSUES).map((i) =>
      issue(
        `${describeValue(i.input)} (${i.message})`,
        i.path.filter((p): p is string | number => typeof p !== 'symbol'),
      ),
    ),
  );
}
