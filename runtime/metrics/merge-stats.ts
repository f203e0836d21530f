/**
 * Merges shard snapshots into one, exactly: counters are summed, HDR histograms added count by
 * count (no loss: every shard uses the same layout), per-second buckets aligned by `second`.
 * The result is canonical — segments sorted, count keys sorted — so merging is associative and
 * commutative: any grouping or order of the same shards gives a deep-equal snapshot.
 */
import { mergeEndpointSeconds, secondsOf } from './endpoint-seconds.js';
import { alignEndpoints } from './align-endpoints.js';
import type { SegmentRef } from '../../model/plan/plan.js';
import { addEncoded } from './histogram.js';
import type { CustomSnapshot } from './custom-snapshot.js';
import { mergeCustom } from './merge-custom.js';
import { mergeSampleFailures } from './sample-failures.js';
import type {
  AuthSnapshot,
  ChecksSnapshot,
  Counts,
  EndpointSnapshot,
  OutcomeSnapshot,
  SecondSnapshot,
  ShardSnapshot,
  TaggedCheckSnapshot,
  VusSample,
  WsSnapshot,
} from './snapshot.js';
import { endpointKey } from './align-endpoints.js';
import { mergeFigures } from './figure-set.js';
import { mergeActive } from './active-span.js';
import { sameSecondFigures, sumSecondFigures } from './second-figures.js';

/**
 * One snapshot holding every shard's figures; throws on a version or endpoint-count mismatch (a
 * bug: callers validate first). A memo makes repeated live merges cheap; the result is the same.
 */
export function mergeSnapshots(
  snapshots: readonly ShardSnapshot[],
  memo?: MergeMemo,
): ShardSnapshot {
  const first = snapshots[0];
  if (first === undefined) throw new Error('mergeSnapshots: no snapshot to merge');
  for (const s of snapshots) {
    // Typed as the literal 1, but snapshots come from other threads, processes and files.
    const version: number = s.version;
    if (version !== 1) throw new Error(`mergeSnapshots: snapshot version ${version} is not 1`);
    if (s.endpoints.length !== first.endpoints.length) {
      throw new Error(
        `mergeSnapshots: ${s.endpoints.length} endpoints ≠ ${first.endpoints.length} endpoints`,
      );
    }
  }
  return {
    version: 1,
    segments: sortSegments(snapshots.flatMap((s) => s.segments)),
    startedAt: snapshots.reduce((min, s) => Math.min(min, s.startedAt), Infinity),
    elapsedMs: snapshots.reduce((max, s) => Math.max(max, s.elapsedMs), 0),
    ...mergeActive(snapshots),
    iterations: sum(snapshots, (s) => s.iterations),
    requests: sum(snapshots, (s) => s.requests),
    successes: sum(snapshots, (s) => s.successes),
    failures: sum(snapshots, (s) => s.failures),
    late: sum(snapshots, (s) => s.late),
    dropped: sum(snapshots, (s) => s.dropped),
    retries: sum(snapshots, (s) => s.retries),
    redirects: sum(snapshots, (s) => s.redirects),
    bytesIn: sum(snapshots, (s) => s.bytesIn),
    bytesDecoded: sum(snapshots, (s) => s.bytesDecoded),
    bytesOut: sum(snapshots, (s) => s.bytesOut),
    statusCodes: mergeCounts(snapshots.map((s) => s.statusCodes)),
    errors: mergeCounts(snapshots.map((s) => s.errors)),
    unsent: mergeCounts(snapshots.map((s) => s.unsent)),
    iterationErrors: mergeCounts(snapshots.map((s) => s.iterationErrors)),
    latency: addEncoded(snapshots.map((s) => s.latency)),
    intended: addEncoded(snapshots.map((s) => s.intended)),
    ...mergeFigures(snapshots, 'run'),
    ...presentCount('vusMax', snapshots),
    ...presentCount('httpDebugDropped', snapshots),
    ...mergeVus(snapshots),
    endpoints: first.endpoints.map((_, i) => mergeEndpoints(snapshots.map((s) => s.endpoints[i]!))),
    ...(first.endpointNames === undefined
      ? {}
      : { endpointNames: first.endpointNames, endpointTags: first.endpointTags ?? [] }),
    series: mergeSeries(
      snapshots.flatMap((s) => s.series),
      memo ?? NO_MEMO,
    ),
    ws: mergePresent(
      snapshots.map((s) => s.ws),
      mergeWs,
    ),
    checks: mergePresent(
      snapshots.map((s) => s.checks),
      mergeChecks,
    ),
    auth: mergePresent(
      snapshots.map((s) => s.auth),
      mergeAuth,
    ),
    interrupted: snapshots.some((s) => s.interrupted),
    ...mergedCustom(snapshots),
    ...mergedSamples(snapshots),
    ...mergeScenarios(snapshots),
  };
}

/** An optional count (absent in older raw files): the sum of those present, absent when none is. */
function presentCount<K extends 'vusMax' | 'httpDebugDropped'>(
  key: K,
  all: readonly ShardSnapshot[],
): Partial<Record<K, number>> {
  const present = all.flatMap((s) => (s[key] === undefined ? [] : [s[key]]));
  return present.length === 0 ? {} : ({ [key]: sum(present, (n) => n) } as Record<K, number>);
}

/** Sample failures merged (sample-failures.ts); absent when no shard has any. */
function mergedSamples(snapshots: readonly ShardSnapshot[]): Pick<ShardSnapshot, 'sampleFailures'> {
  const merged = mergeSampleFailures(snapshots.map((s) => s.sampleFailures));
  return merged === undefined ? {} : { sampleFailures: merged };
}

/** Active virtual users summed second by second; absent when no shard sampled any. */
function mergeVus(snapshots: readonly ShardSnapshot[]): { vus?: VusSample[] } {
  const vus = sumVus(snapshots);
  return vus.length === 0 ? {} : { vus };
}

/** The active virtual users of snapshots summed second by second, seconds ascending. */
export function sumVus(snapshots: readonly ShardSnapshot[]): VusSample[] {
  const bySecond = new Map<number, number>();
  for (const s of snapshots)
    for (const { second, active } of s.vus ?? [])
      bySecond.set(second, (bySecond.get(second) ?? 0) + active);
  return [...bySecond].sort(([a], [b]) => a - b).map(([second, active]) => ({ second, active }));
}

/** Custom metrics and folded names, present only when a shard has them. */
function mergedCustom(snapshots: readonly ShardSnapshot[]): {
  custom?: CustomSnapshot;
  foldedNames?: number;
} {
  const custom = mergeCustom(snapshots.map((s) => s.custom));
  const folded = snapshots.reduce((most, s) => Math.max(most, s.foldedNames ?? 0), 0);
  return {
    ...(custom === undefined ? {} : { custom }),
    ...(folded === 0 ? {} : { foldedNames: folded }),
  };
}

/** Each named scenario's snapshots merged by name; nothing when no snapshot has scenarios. */
function mergeScenarios(snapshots: readonly ShardSnapshot[]): {
  scenarios?: Record<string, ShardSnapshot>;
} {
  const byName = new Map<string, ShardSnapshot[]>();
  for (const s of snapshots)
    for (const [name, own] of Object.entries(s.scenarios ?? {})) {
      const list = byName.get(name) ?? [];
      list.push(own);
      byName.set(name, list);
    }
  if (byName.size === 0) return {};
  const names = [...byName.keys()].sort();
  // fromEntries defines own properties: a scenario named "__proto__" stays a plain key.
  // A TypeScript scenario's shards name their requests in their own order: aligned first.
  return {
    scenarios: Object.fromEntries(
      names.map((n) => [n, mergeSnapshots(alignEndpoints(byName.get(n)!))]),
    ),
  };
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += of(item);
  return total;
}

/** Segments ordered by index, then count, so that the order of the shards does not matter. */
function sortSegments(segments: readonly SegmentRef[]): SegmentRef[] {
  return [...segments].sort((a, b) => a.index - b.index || a.count - b.count);
}

/** Counts summed by key; numeric keys ascending, then the others in code-point order. */
function mergeCounts(all: readonly Counts[]): Counts {
  const sums = new Map<string, number>();
  for (const counts of all) {
    for (const [key, n] of Object.entries(counts)) sums.set(key, (sums.get(key) ?? 0) + n);
  }
  const keys = [...sums.keys()].sort(compareKeys);
  // fromEntries defines own properties: a key like "__proto__" stays a plain key.
  return Object.fromEntries(keys.map((k) => [k, sums.get(k)!]));
}

function compareKeys(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isInteger(x) && Number.isInteger(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Endpoints' figures summed (shards of one endpoint, or endpoints a report shows as one). */
export function mergeEndpoints(all: readonly EndpointSnapshot[]): EndpointSnapshot {
  const ws = mergePresent(
    all.map((e) => e.ws),
    mergeWs,
  );
  return {
    requests: sum(all, (e) => e.requests),
    failures: sum(all, (e) => e.failures),
    latency: addEncoded(all.map((e) => e.latency)),
    statusCodes: mergeCounts(all.map((e) => e.statusCodes)),
    errors: mergeCounts(all.map((e) => e.errors)),
    outcomes: mergeOutcomes(all.flatMap((e) => e.outcomes)),
    ...(ws === undefined ? {} : { ws }),
    ...mergeFigures(all, 'endpoint'),
    ...mergeProtocols(all),
    ...secondsOf(mergeEndpointSeconds(all.map((e) => e.seconds))),
  };
}

/** The union of the endpoints' protocol bits; absent when none has any. */
function mergeProtocols(all: readonly EndpointSnapshot[]): { protocols?: number } {
  const bits = all.reduce((union, e) => union | (e.protocols ?? 0), 0);
  return bits === 0 ? {} : { protocols: bits };
}

/** Outcomes of the same status and error kind summed; status, then error kind ascending. */
function mergeOutcomes(all: readonly OutcomeSnapshot[]): OutcomeSnapshot[] {
  const byKey = new Map<string, OutcomeSnapshot[]>();
  for (const o of all) {
    const key = `${o.status} ${o.error ?? ''} ${stepOf(o)}`;
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [o]);
    else group.push(o);
  }
  return [...byKey.values()]
    .map((group) => {
      const { status, error, retry, redirect } = group[0]!;
      return {
        status,
        ...(error === undefined ? {} : { error }),
        ...(retry === undefined ? {} : { retry }),
        ...(redirect === undefined ? {} : { redirect }),
        requests: sum(group, (o) => o.requests),
        latency: addEncoded(group.map((o) => o.latency)),
      };
    })
    .sort(
      (a, b) =>
        a.status - b.status || compareKeys(a.error ?? '', b.error ?? '') || stepOf(a) - stepOf(b),
    );
}

/** An outcome's step, as endpoint-figures.ts orders them: a retry 1, a redirect's hop 2. */
function stepOf(outcome: OutcomeSnapshot): number {
  return (outcome.retry === true ? 1 : 0) + (outcome.redirect === true ? 2 : 0);
}

/**
 * Remembers each second's merge between calls. Live views merge the same shards every 500 ms and
 * only the last second or two change, while merging one second of 8 shards costs ≈ 0.9 ms
 * (8 decodes, 7 adds, 1 encode: bench/metrics.bench.ts), ≈ 0.5 s for a 10-minute run.
 */
export class MergeMemo {
  readonly #bySecond = new Map<
    number,
    { inputs: readonly SecondSnapshot[]; merged: SecondSnapshot }
  >();

  /** The sum of one second's buckets, reused while every input equals last call's. */
  mergeSecond(second: number, group: readonly SecondSnapshot[]): SecondSnapshot {
    const prior = this.#bySecond.get(second);
    if (prior !== undefined && sameBuckets(prior.inputs, group)) return prior.merged;
    const merged = sumSeconds(second, group);
    this.#bySecond.set(second, { inputs: group, merged });
    return merged;
  }
}

/** A memo that remembers nothing: the plain merge. */
const NO_MEMO = {
  mergeSecond: (second: number, group: readonly SecondSnapshot[]) => sumSeconds(second, group),
};

function sameBuckets(a: readonly SecondSnapshot[], b: readonly SecondSnapshot[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i]!;
    return (
      x.requests === y.requests &&
      x.failures === y.failures &&
      x.bytesIn === y.bytesIn &&
      x.latency === y.latency &&
      sameSecondFigures(x, y)
    );
  });
}

/** Buckets of the same second summed; seconds ascending. */
function mergeSeries(
  buckets: readonly SecondSnapshot[],
  memo: Pick<MergeMemo, 'mergeSecond'>,
): SecondSnapshot[] {
  const bySecond = new Map<number, SecondSnapshot[]>();
  for (const b of buckets) {
    const group = bySecond.get(b.second);
    if (group === undefined) bySecond.set(b.second, [b]);
    else group.push(b);
  }
  return [...bySecond.keys()]
    .sort((a, b) => a - b)
    .map((second) => {
      const group = bySecond.get(second)!;
      return group.length === 1 ? group[0]! : memo.mergeSecond(second, group);
    });
}

function sumSeconds(second: number, group: readonly SecondSnapshot[]): SecondSnapshot {
  return {
    second,
    requests: sum(group, (b) => b.requests),
    failures: sum(group, (b) => b.failures),
    bytesIn: sum(group, (b) => b.bytesIn),
    latency: addEncoded(group.map((b) => b.latency)),
    ...sumSecondFigures(group),
  };
}

/** The merge of the parts that are there; undefined when no shard has one. */
function mergePresent<T>(
  all: readonly (T | undefined)[],
  merge: (present: readonly T[]) => T,
): T | undefined {
  const present = all.filter((x): x is T => x !== undefined);
  return present.length === 0 ? undefined : merge(present);
}

function mergeWs(all: readonly WsSnapshot[]): WsSnapshot {
  return {
    sessions: sum(all, (w) => w.sessions),
    failures: sum(all, (w) => w.failures),
    msgsSent: sum(all, (w) => w.msgsSent),
    msgsReceived: sum(all, (w) => w.msgsReceived),
    msgsTaken: sum(all, (w) => w.msgsTaken),
    listenMsgs: sum(all, (w) => w.listenMsgs),
    listenUs: sum(all, (w) => w.listenUs),
    stepFailures: mergeCounts(all.map((w) => w.stepFailures)),
    connecting: addEncoded(all.map((w) => w.connecting)),
    rtt: addEncoded(all.map((w) => w.rtt)),
    session: addEncoded(all.map((w) => w.session)),
  };
}

/** A check's counts. */
type CheckCounts = ChecksSnapshot['byName'][string];

/**
 * Pass and fail counts summed by check name: a name that comes more than once (from several
 * segments, or two names that redaction made one) is one entry. In the order first seen.
 */
export function sumChecksByName(
  entries: Iterable<readonly [string, CheckCounts]>,
): Map<string, CheckCounts> {
  const byName = new Map<string, CheckCounts>();
  for (const [name, c] of entries) {
    const total = byName.get(name) ?? { passes: 0, fails: 0 };
    byName.set(name, { passes: total.passes + c.passes, fails: total.fails + c.fails });
  }
  return byName;
}

function mergeChecks(all: readonly ChecksSnapshot[]): ChecksSnapshot {
  const byName = sumChecksByName(all.flatMap((checks) => Object.entries(checks.byName)));
  const names = [...byName.keys()].sort();
  const tagged = new Map<string, TaggedCheckSnapshot>();
  for (const c of all.flatMap((checks) => checks.tagged ?? [])) {
    const key = endpointKey(c.name, c.tags);
    const known = tagged.get(key);
    tagged.set(
      key,
      known === undefined
        ? c
        : { ...known, passes: known.passes + c.passes, fails: known.fails + c.fails },
    );
  }
  const keys = [...tagged.keys()].sort(compareKeys);
  return {
    passes: sum(all, (c) => c.passes),
    fails: sum(all, (c) => c.fails),
    byName: Object.fromEntries(names.map((n) => [n, byName.get(n)!])),
    ...(keys.length === 0 ? {} : { tagged: keys.map((k) => tagged.get(k)!) }),
  };
}

function mergeAuth(all: readonly AuthSnapshot[]): AuthSnapshot {
  return {
    fetches: sum(all, (a) => a.fetches),
    failures: sum(all, (a) => a.failures),
    latency: addEncoded(all.map((a) => a.latency)),
  };
}
