/**
 * Which samples a set of tags selects (docs/configuration.md, Tags), for thresholds and the
 * per-tag summaries. A request's sample carries its scenario's tags and `scenario`, its
 * endpoint's own tags and `endpoint`, and its outcome's `status`, `error_kind` (failures only)
 * and `expected_response`; the figures of the matching endpoints, or of their matching outcomes,
 * are summed. Without an `endpoint` tag WebSocket endpoints are left out of the HTTP figures, as
 * the run's own HTTP latency leaves them out.
 */
import type { Tags } from '../../model/metrics/metric-registry.js';
import { DEFAULT_SCENARIO } from '../../model/plan/scenario-plan.js';
import { addEncoded } from './histogram.js';
import type { Figure } from '../../model/metrics/metric-figures.js';
import { figureValue, sumRates } from './figure-set.js';
import { mergeEndpoints } from './merge-stats.js';
import type {
  EncodedHistogram,
  EndpointSnapshot,
  OutcomeSnapshot,
  ShardSnapshot,
  WsSnapshot,
  RateCounts,
} from './snapshot.js';

/** The tags of a run's endpoints and scenarios, which tagged thresholds match samples by. */
export interface RunTags {
  /** The run's own tags, on every sample. */
  readonly run: Tags;
  /** Each endpoint's own tags (method, group, user tags), by index as the endpoint names. */
  readonly endpoints: readonly Tags[];
  /** Each named scenario's tags. */
  readonly scenarios: Readonly<Record<string, Tags>>;
}

/** A run without tags. */
export const NO_RUN_TAGS: RunTags = { run: {}, endpoints: [], scenarios: {} };

/** The HTTP figures a threshold reads: the run's, or those of the samples its tags select. */
export interface HttpFigures {
  readonly requests: number;
  readonly failures: number;
  readonly latency: EncodedHistogram;
}

/** What tags match samples against: the run's tags and its endpoints' names. */
export interface SampleTable extends RunTags {
  readonly names: readonly string[];
}

/** A snapshot whose samples a threshold may read, and the tags all its samples carry. */
export interface Source {
  readonly own: ShardSnapshot;
  readonly tags: Tags;
}

/**
 * The snapshots a spec reads: with `{scenario=name}`, that scenario's own (`default` in a run of
 * the top-level form); else, when its other tags may be a scenario's, every scenario's, each with
 * its tags; else the run's.
 */
export function sourcesOf(filter: Tags, snapshot: ShardSnapshot, table: SampleTable): Source[] {
  const scenarios = snapshot.scenarios;
  const name = filter.scenario;
  if (scenarios === undefined) {
    if (name !== undefined && name !== DEFAULT_SCENARIO) return [];
    return [{ own: snapshot, tags: { scenario: DEFAULT_SCENARIO } }];
  }
  const all = Object.entries(scenarios).map(([scenario, own]) => ({
    own,
    tags: { ...table.scenarios[scenario], scenario },
  }));
  if (name !== undefined) return all.filter((s) => s.tags.scenario === name);
  const scenarioKeys = Object.keys(filter).some((key) =>
    all.some((s) => Object.hasOwn(s.tags, key)),
  );
  return scenarioKeys ? all : [{ own: snapshot, tags: {} }];
}

/** Tags that vary request by request: read from an endpoint's outcomes. */
const OUTCOME_TAGS: ReadonlySet<string> = new Set([
  'status',
  'error_kind',
  'expected_response',
  'retry',
  'redirect',
]);

/** True when every filter tag but the outcome tags has its value in `tags`. */
export function matches(filter: Tags, tags: Tags): boolean {
  for (const [key, value] of Object.entries(filter))
    if (!OUTCOME_TAGS.has(key) && tags[key] !== value) return false;
  return true;
}

/**
 * True when an outcome has the filter's status, error kind, expected_response, retry and
 * redirect, if given (retry and redirect are "true" or "false").
 */
function outcomeMatches(filter: Tags, outcome: OutcomeSnapshot): boolean {
  const { status, error_kind: kind, expected_response: expected, retry, redirect } = filter;
  if (status !== undefined && String(outcome.status) !== status) return false;
  if (kind !== undefined && outcome.error !== kind) return false;
  if (retry !== undefined && String(outcome.retry === true) !== retry) return false;
  if (redirect !== undefined && String(outcome.redirect === true) !== redirect) return false;
  return expected === undefined || String(outcome.error === undefined) === expected;
}

/** Each endpoint of each source whose tags the filter matches, with those tags. */
export function matchingEndpoints(
  filter: Tags,
  sources: readonly Source[],
  table: SampleTable,
): { endpoint: EndpointSnapshot; tags: Tags }[] {
  const found: { endpoint: EndpointSnapshot; tags: Tags }[] = [];
  for (const source of sources)
    source.own.endpoints.forEach((endpoint, i) => {
      const tags = { ...source.tags, ...endpointTagsOf(source.own, i, table) };
      if (matches(filter, tags)) found.push({ endpoint, tags });
    });
  return found;
}

/**
 * The name and own tags of a snapshot's endpoint `i`, `endpoint` among them: those the snapshot
 * met (a TypeScript scenario's own, named in its order) with the run's tags, else the table's.
 */
export function endpointTagsOf(own: ShardSnapshot, i: number, table: SampleTable): Tags {
  const met = own.endpointNames?.[i];
  if (met !== undefined) return { ...table.run, ...own.endpointTags?.[i], endpoint: met };
  return { ...table.endpoints[i], endpoint: table.names[i] ?? `#${i}` };
}

/** The run's snapshot, or with `{scenario=name}` alone that scenario's: read whole, as is. */
function wholeOf(
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
): ShardSnapshot | undefined {
  const keys = Object.keys(filter);
  if (keys.length === 0) return snapshot;
  return keys.length === 1 && filter.scenario !== undefined ? sources[0]!.own : undefined;
}

/**
 * The run's HTTP figures (untagged), or the sum of the tagged endpoints'. Without an `endpoint`
 * tag, WebSocket endpoints are left out, as http_req_duration's run figure leaves them out; with
 * outcome tags, only the matching outcomes count. `sessions: false` (k6's http_reqs) leaves
 * WebSocket sessions out everywhere, the run's figure too. Undefined when nothing matches.
 */
export function httpFigures(
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: SampleTable,
  sessions = true,
): HttpFigures | undefined {
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined) return sessions ? whole : withoutSessions(whole);
  const byOutcome = Object.keys(filter).some((key) => OUTCOME_TAGS.has(key));
  const named = sessions && filter.endpoint !== undefined;
  const endpoints = matchingEndpoints(filter, sources, table).filter(
    ({ endpoint }) => named || endpoint.ws === undefined,
  );
  if (endpoints.length === 0) return undefined;
  if (!byOutcome) {
    const all = endpoints.map((e) => e.endpoint);
    return {
      requests: all.reduce((n, e) => n + e.requests, 0),
      failures: all.reduce((n, e) => n + e.failures, 0),
      latency: addEncoded(all.map((e) => e.latency)),
    };
  }
  const outcomes = endpoints.flatMap((e) =>
    e.endpoint.outcomes.filter((o) => outcomeMatches(filter, o)),
  );
  return {
    requests: outcomes.reduce((n, o) => n + o.requests, 0),
    failures: outcomes.reduce((n, o) => n + (o.error === undefined ? 0 : o.requests), 0),
    latency: addEncoded(outcomes.map((o) => o.latency)),
  };
}

/** A run's HTTP figures less its WebSocket sessions (whose lengths its latency never held). */
function withoutSessions(whole: ShardSnapshot): HttpFigures {
  const ws = whole.ws;
  return {
    requests: whole.requests - (ws?.sessions ?? 0),
    failures: whole.failures - (ws?.failures ?? 0),
    latency: whole.latency,
  };
}

/**
 * An endpoint trend (model/metrics/metric-figures.ts) of the run (untagged) or of the tagged
 * endpoints: kept per endpoint and not per outcome (the registry gives these metrics no outcome
 * tags). Undefined when no endpoint matches.
 */
export function endpointTrend(
  figure: Figure,
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: SampleTable,
): EncodedHistogram | undefined {
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined)
    return (figureValue(whole, figure) as EncodedHistogram | undefined) ?? '';
  const endpoints = matchingEndpoints(filter, sources, table);
  if (endpoints.length === 0) return undefined;
  return addEncoded(
    endpoints.map((e) => (figureValue(e.endpoint, figure) as EncodedHistogram | undefined) ?? ''),
  );
}

/**
 * An endpoint counter (stream events or chunks, say) of the run (untagged) or of the tagged
 * endpoints; undefined when nothing was counted there (no data, as an empty trend).
 */
export function endpointCount(
  figure: Figure,
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: SampleTable,
): number | undefined {
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined) return figureValue(whole, figure) as number | undefined;
  const counts = matchingEndpoints(filter, sources, table).flatMap((e) => {
    const count = figureValue(e.endpoint, figure) as number | undefined;
    return count === undefined ? [] : [count];
  });
  return counts.length === 0 ? undefined : counts.reduce((a, b) => a + b, 0);
}

/**
 * An endpoint rate of the run (untagged) or of the tagged endpoints: its counts summed; undefined
 * when nothing was sampled there.
 */
export function endpointRate(
  figure: Figure,
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: SampleTable,
): RateCounts | undefined {
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined) return figureValue(whole, figure) as RateCounts | undefined;
  const counts = matchingEndpoints(filter, sources, table).flatMap((e) => {
    const value = figureValue(e.endpoint, figure) as RateCounts | undefined;
    return value === undefined ? [] : [value];
  });
  return counts.length === 0 ? undefined : sumRates(counts);
}

/** The run's WebSocket figures (untagged), or the sum of the tagged endpoints'. */
export function wsFigures(
  filter: Tags,
  snapshot: ShardSnapshot,
  sources: readonly Source[],
  table: SampleTable,
): WsSnapshot | undefined {
  const whole = wholeOf(filter, snapshot, sources);
  if (whole !== undefined) return whole.ws;
  const endpoints = matchingEndpoints(filter, sources, table)
    .map((e) => e.endpoint)
    .filter((e) => e.ws !== undefined);
  return endpoints.length === 0 ? undefined : mergeEndpoints(endpoints).ws;
}
