/**
 * The raw, mergeable result of one segment (`--raw FILE`): its exact shard (encoded HDR
 * histograms, counters, per-second series, per-endpoint figures) plus what a merge needs to
 * produce the same reports a single run would: endpoint names, threshold specs, the load
 * description and the redacted configuration. Versioned; a fingerprint of the plan tells
 * whether files belong to the same run.
 */
import { createHash } from 'node:crypto';
import type { CustomMetric, Tags } from '../model/metrics/metric-registry.js';
import type { Plan, SegmentRef } from '../model/plan/plan.js';
import type { ThresholdSpec } from '../model/plan/threshold-spec.js';
import type { ShardSnapshot } from './metrics/snapshot.js';
import type { ThresholdAbort } from './thresholds/abort-on-fail.js';

/** Identifies the file format. */
export const RAW_FORMAT = 'barrage-raw';
/** Bumped on any change of shape; a merge refuses other versions. */
export const RAW_VERSION = 1;

/** What a report heading shows about the run. */
export interface RunMeta {
  readonly target: string | undefined;
  readonly concurrency: number;
  readonly load: string;
}

/** Lines of the HTTP debug log written and dropped (bounds, a failed write). */
export interface HttpDebugCounts {
  readonly written: number;
  readonly dropped: number;
}

/** A segment a merge had no result of (`merge --partial`, or a peer lost in a rendezvous). */
export interface MissingSegment {
  readonly index: number;
  readonly count: number;
  /** Why: "no file given", "lost at 12:00:03Z: connection closed"… */
  readonly reason: string;
}

/** A signal that stopped a segment early, and which segment. */
export interface SegmentStop {
  readonly signal: string;
  readonly segment: SegmentRef;
}

/** One segment's raw result. */
export interface RawResult {
  readonly format: typeof RAW_FORMAT;
  readonly version: typeof RAW_VERSION;
  /** Same for every segment of one plan. */
  readonly fingerprint: string;
  readonly segment: SegmentRef;
  readonly endpointNames: readonly string[];
  /** Each endpoint's own tags (method, group, user tags, the run's tags), by index as endpointNames. */
  readonly endpointTags: readonly Tags[];
  /** Tag keys the reports break requests down by (`summary_by`). */
  readonly summaryBy: readonly string[];
  /** The run's own tags (`tags:`), on every sample. */
  readonly runTags: Tags;
  /** Each named scenario's own tags (`tags:` of the scenario). */
  readonly scenarioTags: Readonly<Record<string, Tags>>;
  readonly thresholds: readonly ThresholdSpec[];
  /** The custom metrics declared (kind, unit, description), by name: the reports print them. */
  readonly metrics: Readonly<Record<string, CustomMetric>>;
  readonly meta: RunMeta;
  /** The effective configuration, secrets already redacted. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly snapshot: ShardSnapshot;
  /** Why this segment stopped early, if it did. */
  readonly fatal: string | undefined;
  /** The `abort_on_fail` threshold that stopped this segment's run, if one did. */
  readonly aborted?: ThresholdAbort;
  /** The HTTP debug log of this process; absent when it was off. */
  readonly httpDebug?: HttpDebugCounts;
  /**
   * The run's identity: its planned start (`--start-at`, or the rendezvous's release), epoch ms.
   * A merge refuses files of other runs of the same plan.
   */
  readonly startAt?: number;
  /** How late dispatch began after startAt, when later than LATE_START_MS. */
  readonly lateStartMs?: number;
  /** The segments a partial merge had no result of; absent when the result is whole. */
  readonly partial?: readonly MissingSegment[];
  /** The signals that stopped segments early (SIGINT, SIGTERM, SIGHUP), each with its segment. */
  readonly stops?: readonly SegmentStop[];
}

/** A segment beginning later than this after its start time is late (warned, and so marked). */
export const LATE_START_MS = 1000;

/**
 * A hash of everything that must be equal across the segments of one run: the scenario, the
 * load model and its limits, thresholds, retry and auth settings, the feeder's records. Not the
 * segment index, the start time, the seed (each process may draw its own), report paths or the
 * HTTP debug log.
 */
export function planFingerprint(plan: Plan): string {
  const {
    segment: _segment,
    startAt: _startAt,
    seed: _seed,
    report: _report,
    threads: _threads,
    httpDebug: _httpDebug,
    ...rest
  } = plan;
  const auth = rest.auth?.type === 'oauth2' ? { ...rest.auth, clientSecret: '' } : rest.auth;
  // The feeder's table goes into the hash as bytes, not as JSON text (a 100 MB file would
  // become a string larger than itself).
  const table = rest.feeder?.records;
  const feeder = rest.feeder === undefined ? undefined : { ...rest.feeder, records: table?.fields };
  const hash = createHash('sha256').update(
    JSON.stringify({ ...rest, auth, feeder }, (_key, value: unknown) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
    ),
  );
  if (table !== undefined) {
    hash.update(table.bytes);
    hash.update(new Uint8Array(table.ends.buffer, table.ends.byteOffset, table.ends.byteLength));
    if (table.kinds !== undefined) hash.update(table.kinds);
  }
  return hash.digest('hex').slice(0, 32);
}
