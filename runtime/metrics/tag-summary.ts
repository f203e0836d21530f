/**
 * Requests broken down by the values of one tag (`summary_by`, and the tags thresholds filter
 * on): for `status`, a line per status; for `group`, a line per group; for a tag of the user's,
 * a line per value. Each line sums the samples that carry that value, as a threshold on
 * `{tag=value}` reads them (sample-select.ts).
 */
import type { TagBreakdown } from './run-result.js';
import { summarizeEncoded } from './histogram.js';
import { endpointTagsOf, httpFigures, sourcesOf, type SampleTable } from './sample-select.js';
import type { ShardSnapshot } from './snapshot.js';

/** Values of a tag kept apart in a breakdown; the rest are left out (and counted). */
export const MAX_TAG_VALUES = 50;

/** The requests of each value `key` takes in the run, values in natural order. */
export function tagBreakdown(
  snapshot: ShardSnapshot,
  table: SampleTable,
  key: string,
): TagBreakdown {
  const values = [...tagValues(snapshot, table, key)].sort(naturalOrder);
  const kept = values.slice(0, MAX_TAG_VALUES);
  const lines = kept.flatMap((value) => {
    const filter = { [key]: value };
    const figures = httpFigures(filter, snapshot, sourcesOf(filter, snapshot, table), table);
    if (figures === undefined || figures.requests === 0) return [];
    return [
      {
        value,
        requests: figures.requests,
        failures: figures.failures,
        latency_ms: summarizeEncoded(figures.latency),
      },
    ];
  });
  return { key, values: lines, values_left_out: values.length - kept.length };
}

/** Every value the tag has on some request sample of the run. */
function tagValues(snapshot: ShardSnapshot, table: SampleTable, key: string): Set<string> {
  const found = new Set<string>();
  const snapshots = Object.entries(snapshot.scenarios ?? { default: snapshot });
  for (const [scenario, own] of snapshots) {
    const scenarioTags = { ...table.run, ...table.scenarios[scenario], scenario };
    own.endpoints.forEach((endpoint, i) => {
      if (endpoint.requests === 0) return;
      const tags: Record<string, string> = { ...scenarioTags, ...endpointTagsOf(own, i, table) };
      for (const outcome of endpoint.outcomes) {
        tags.status = String(outcome.status);
        tags.expected_response = String(outcome.error === undefined);
        if (outcome.error !== undefined) tags.error_kind = outcome.error;
        else delete tags.error_kind;
        const value = tags[key];
        if (value !== undefined) found.add(value);
      }
    });
  }
  return found;
}

/** Numbers ascending before text, text in code-point order. */
function naturalOrder(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  if (Number.isFinite(x) !== Number.isFinite(y)) return Number.isFinite(x) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
