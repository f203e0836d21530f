/**
 * The front door of HAR import, shared by `barrage har` and `run --har`/`validate --har`: reads
 * the recording, parses every filter expression, converts, and refuses a result that keeps
 * nothing (naming the filter only when a filter removed something, and listing malformed entries'
 * problems). Every problem (file, entries, each filter) comes back at once as ConfigIssues.
 */
import { resolve } from 'node:path';
import { parseHarFilter, type HarCriterion } from '../grammar/har-filter.js';
import type { ConfigIssue, Source } from '../issues.js';
import { err, ok, type Result } from '../result.js';
import { harToEndpoints, type HarEndpoints, type HarSummary } from './har-to-endpoints.js';
import { harSource, readHarFile } from './read-har.js';

/** What importing needs. */
export interface HarImportInputs {
  readonly cwd: string;
  /** The HAR file as the user named it. */
  readonly file: string;
  /** Filter expressions, one per --har-filter; all must hold. */
  readonly filters: readonly string[];
  /** The run's target, if any: see harToEndpoints. */
  readonly target: string | undefined;
  readonly keepSecrets: boolean;
  readonly asFlow: boolean;
  /** Correlate dynamic values in the flow (default true; `barrage har --no-correlate` turns it off). */
  readonly correlate?: boolean;
  /** Multiplies the flow's recorded pauses (default 1; 0: none). */
  readonly thinkScale?: number;
  /** Endpoint names already in use. */
  readonly takenNames: readonly string[];
}

const FILTER_FLAG: Source = { kind: 'flag', flag: '--har-filter' };

/** Reads, filters and converts a recording. */
export function importHar(inputs: HarImportInputs): Result<HarEndpoints, ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  const criteria: HarCriterion[] = [];
  for (const expression of inputs.filters) {
    const parsed = parseHarFilter(expression);
    if (parsed.ok) criteria.push(...parsed.value);
    else
      issues.push({
        code: 'invalid_har_filter',
        source: FILTER_FLAG,
        path: [],
        expected:
          'a HAR filter of key:value criteria (keys host, method, type, status, path) or static, such as "!static method:GET|POST"',
        actual: JSON.stringify(expression),
        hint: parsed.error.message,
      });
  }
  const har = readHarFile(resolve(inputs.cwd, inputs.file), inputs.file);
  if (!har.ok) issues.push(...har.error);
  if (!har.ok || issues.length > 0) return err(issues);
  const converted = harToEndpoints(har.value, {
    criteria,
    target: inputs.target,
    keepSecrets: inputs.keepSecrets,
    asFlow: inputs.asFlow,
    correlate: inputs.correlate ?? true,
    thinkScale: inputs.thinkScale ?? 1,
    takenNames: inputs.takenNames,
  });
  if (converted.endpoints.length > 0) return ok(converted);
  const filtered = converted.summary.filtered.length > 0;
  return err([
    ...har.value.issues,
    {
      code: 'har_error',
      source: filtered ? FILTER_FLAG : harSource(inputs.file),
      path: [],
      expected: filtered
        ? 'a filter that keeps at least one recorded request'
        : 'a recording with at least one replayable request',
      actual: nothingKept(converted.summary),
    },
  ]);
}

/** "none of 13 entries: 2 to other hosts (cdn.test), 11 skipped by method:PUT". */
function nothingKept(summary: HarSummary): string {
  const parts: string[] = [];
  const hosts = summary.otherHosts;
  const total = (list: readonly { count: number }[]) => list.reduce((n, c) => n + c.count, 0);
  if (hosts.length > 0) {
    const names = hosts
      .slice(0, 3)
      .map((h) => h.label)
      .join(', ');
    const more = hosts.length > 3 ? ', …' : '';
    parts.push(
      `${total(hosts)} to hosts other than the page's ${summary.page?.origin ?? ''} (${names}${more}; a host: criterion keeps them)`,
    );
  }
  for (const f of summary.filtered) parts.push(`${f.count} skipped by ${f.label}`);
  for (const u of summary.unsupported) parts.push(`${u.count} not replayable: ${u.label}`);
  const entries = summary.entries === 1 ? '1 entry' : `${summary.entries} entries`;
  return parts.length === 0
    ? `an empty recording (${entries})`
    : `none of ${entries}: ${parts.join(', ')}`;
}
