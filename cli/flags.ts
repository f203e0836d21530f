/**
 * Flags shared by `run` and `validate` → the flag Layer (spec §1.2: flags take precedence).
 * Values arrive as text and are coerced by the schema's types, like environment variables, so a
 * bad value is reported by the schema with the flag named as its source.
 */
import type { ConfigIssue, Source } from '../dsl/issues.js';
import type { Layer } from '../dsl/layers.js';
import { isTokenLikeName } from '../dsl/secrets.js';
import { coerceText } from '../dsl/sources/coerce-text.js';

/** Flag values as clipanion parsed them (undefined: not given). */
export interface FlagValues {
  readonly target?: string | undefined;
  readonly concurrency?: string | undefined;
  readonly duration?: string | undefined;
  readonly requests?: string | undefined;
  readonly rate?: string | undefined;
  readonly method?: string | undefined;
  readonly headers?: readonly string[] | undefined;
  readonly body?: string | undefined;
  readonly timeout?: string | undefined;
  readonly stopGrace?: string | undefined;
  readonly thresholds?: readonly string[] | undefined;
  readonly outputs?: readonly string[] | undefined;
  readonly outputPeriod?: string | undefined;
  readonly json?: string | undefined;
  readonly html?: string | undefined;
  readonly junit?: string | undefined;
  readonly raw?: string | undefined;
  readonly summaryMd?: string | undefined;
  readonly summaryBy?: string | undefined;
  readonly scenario?: string | undefined;
  readonly threads?: string | undefined;
  readonly seed?: string | undefined;
  readonly segment?: string | undefined;
  readonly startAt?: string | undefined;
  readonly insecure?: boolean | undefined;
  readonly baseline?: string | undefined;
  /** `--http-debug` alone is true (failed requests), `--http-debug=all` a string. */
  readonly httpDebug?: string | boolean | undefined;
  readonly httpDebugFile?: string | undefined;
}

/** Top-level scalar keys and the flag that sets each. */
const SCALARS: readonly [keyof FlagValues, string, string][] = [
  ['target', 'target', '--target'],
  ['concurrency', 'concurrency', '--concurrency'],
  ['duration', 'duration', '--duration'],
  ['requests', 'requests', '--requests'],
  ['rate', 'rate', '--rate'],
  ['method', 'method', '--method'],
  ['body', 'body', '--body'],
  ['timeout', 'timeout', '--timeout'],
  ['stopGrace', 'stop_grace', '--stop-grace'],
  ['scenario', 'scenario', '--scenario'],
  ['threads', 'threads', '--threads'],
  ['seed', 'seed', '--seed'],
  ['segment', 'segment', '--segment'],
  ['startAt', 'start_at', '--start-at'],
  ['outputPeriod', 'output_period', '--out-period'],
  ['baseline', 'baseline', '--baseline'],
];

const REPORTS: readonly [keyof FlagValues, string, string][] = [
  ['json', 'json', '--json'],
  ['html', 'html', '--html'],
  ['junit', 'junit', '--junit'],
  ['raw', 'raw', '--raw'],
  ['summaryMd', 'summary_md', '--summary-md'],
];

/** Builds the flag layer; malformed --header values are issues. */
export function toFlagLayer(flags: FlagValues): { layer: Layer; issues: ConfigIssue[] } {
  const values: Record<string, unknown> = {};
  const flagOf = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  for (const [field, key, flag] of SCALARS) {
    const text = flags[field];
    if (typeof text !== 'string') continue;
    const coerced = coerceText(key, text);
    values[key] = coerced.ok ? coerced.value : text;
    flagOf.set(key, flag);
  }
  const report: Record<string, string> = {};
  for (const [field, key, flag] of REPORTS) {
    const text = flags[field];
    if (typeof text !== 'string') continue;
    report[key] = text;
    flagOf.set(`report.${key}`, flag);
  }
  const summaryBy: readonly string[] | undefined = flags.summaryBy?.split(',').map((k) => k.trim());
  if (Object.keys(report).length > 0 || summaryBy !== undefined)
    values.report = { ...report, ...(summaryBy === undefined ? {} : { summary_by: summaryBy }) };
  if (summaryBy !== undefined) flagOf.set('report.summary_by', '--summary-by');
  if (flags.insecure === true) {
    values.insecure = true;
    flagOf.set('insecure', '--insecure');
  }
  if (flags.thresholds !== undefined && flags.thresholds.length > 0) {
    values.thresholds = [...flags.thresholds];
    flagOf.set('thresholds', '--threshold');
  }
  if (flags.outputs !== undefined && flags.outputs.length > 0) {
    values.outputs = [...flags.outputs];
    flagOf.set('outputs', '--out');
  }
  httpDebugFlags(flags, values, flagOf);
  const secretValues = new Set<string>();
  const headers = parseHeaders(flags.headers ?? [], issues, secretValues);
  if (headers !== undefined) {
    values.headers = headers;
    flagOf.set('headers', '--header');
  }
  const layer: Layer = {
    name: 'flags',
    values,
    sourceOf: (path): Source => {
      const [top, second] = path;
      const flag = flagOf.get(`${String(top)}.${String(second)}`) ?? flagOf.get(String(top));
      return { kind: 'flag', flag: flag ?? `--${String(top)}` };
    },
    secretPaths: new Set(),
    secretValues,
  };
  return { layer, issues };
}

/**
 * `--http-debug[=failed|all]` and `--http-debug-file` → `http_debug` (merged key by key with the
 * other layers'): the bare flag selects the failed requests; a file alone turns the log on too.
 */
function httpDebugFlags(
  flags: FlagValues,
  values: Record<string, unknown>,
  flagOf: Map<string, string>,
): void {
  const debug: Record<string, string> = {};
  const requests = flags.httpDebug;
  if (requests !== undefined && requests !== false) {
    debug.requests = requests === true ? 'failed' : requests;
    flagOf.set('http_debug.requests', '--http-debug');
    flagOf.set('http_debug', '--http-debug');
  }
  if (flags.httpDebugFile !== undefined) {
    debug.file = flags.httpDebugFile;
    flagOf.set('http_debug.file', '--http-debug-file');
    if (!flagOf.has('http_debug')) flagOf.set('http_debug', '--http-debug-file');
  }
  if (Object.keys(debug).length > 0) values.http_debug = debug;
}

function parseHeaders(
  lines: readonly string[],
  issues: ConfigIssue[],
  secretValues: Set<string>,
): Record<string, string> | undefined {
  if (lines.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      // Without its colon, name and value cannot be told apart: a token-like line is hidden whole.
      if (isTokenLikeName(line)) secretValues.add(line);
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag: '--header' },
        path: ['headers'],
        expected: "'Name: value'",
        actual: JSON.stringify(line),
      });
      continue;
    }
    Object.defineProperty(headers, line.slice(0, colon).trim(), {
      value: line.slice(colon + 1).trim(),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return headers;
}
