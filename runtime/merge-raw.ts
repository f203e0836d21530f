/**
 * Merges the raw results of a distributed run (DESIGN.md §3): the files must come from one plan
 * (same fingerprint) and cover each segment exactly once. Per-second series are aligned on the
 * wall clock first (each process counts seconds from its own dispatch start; with --start-at the
 * offsets are 0), then shards merge exactly.
 */
import { alignEndpoints } from './metrics/align-endpoints.js';
import { mergeSnapshots } from './metrics/merge-stats.js';
import { shiftActive } from './metrics/active-span.js';
import type { ShardSnapshot } from './metrics/snapshot.js';
import type { HttpDebugCounts, MissingSegment, RawResult } from './raw-result.js';
import type { ThresholdAbort } from './thresholds/abort-on-fail.js';

/** A raw result and the name it came from (for messages). */
export interface NamedRaw {
  readonly name: string;
  readonly raw: RawResult;
}

/**
 * Every problem found, or the merged result (its `segment` is 1/1: it is the whole run) with the
 * warnings about it (segments that started apart or late).
 */
export type MergeOutcome =
  | { readonly problems: readonly string[] }
  | { readonly merged: RawResult; readonly warnings: readonly string[] };

/** How to merge: `missing` says why a segment without a result is missing (a partial merge). */
export interface MergeOptions {
  /** Merge what there is, the rest labelled missing with this reason; undefined: all needed. */
  readonly missing?: ((index: number) => string) | undefined;
}

/** Starts further apart than this are warned of (the series align to the nearest second). */
const START_SPREAD_MS = 1000;

/** Checks coverage and merges. */
export function mergeRawResults(
  files: readonly NamedRaw[],
  options: MergeOptions = {},
): MergeOutcome {
  const problems = coverageProblems(files, options.missing !== undefined);
  if (problems.length > 0) return { problems };
  // A merge is not late itself: the late segments are warned of (startWarnings).
  const { lateStartMs: _late, ...first } = files[0]!.raw;
  const partial = missingSegments(files, options);
  const base = files.reduce((min, f) => Math.min(min, f.raw.snapshot.startedAt), Infinity);
  // A TypeScript scenario's segments name their endpoints as they meet them: one table first.
  const stops = files.flatMap((f) => f.raw.stops ?? []);
  const aligned = alignEndpoints(files.map((f) => alignTo(f.raw.snapshot, base)));
  const snapshot = mergeSnapshots(aligned);
  return {
    merged: {
      ...first,
      endpointNames: snapshot.endpointNames ?? first.endpointNames,
      endpointTags:
        snapshot.endpointTags?.map((own) => ({ ...first.runTags, ...own })) ?? first.endpointTags,
      segment: { index: 1, count: 1 },
      snapshot,
      fatal: files.map((f) => f.raw.fatal).find((m) => m !== undefined),
      ...firstAbort(files),
      ...httpDebugCounts(files),
      ...(partial.length === 0 ? {} : { partial }),
      ...(stops.length === 0 ? {} : { stops }),
    },
    warnings: startWarnings(files),
  };
}

/** The segments a partial merge has no file of, each with why. */
function missingSegments(files: readonly NamedRaw[], options: MergeOptions): MissingSegment[] {
  const { count } = files[0]!.raw.segment;
  const missing: MissingSegment[] = [];
  const had = new Set(files.map((f) => f.raw.segment.index));
  const inner = files.flatMap((f) => f.raw.partial ?? []);
  for (let index = 1; index <= count; index++)
    if (!had.has(index) && options.missing !== undefined)
      missing.push({ index, count, reason: options.missing(index) });
  return [...inner, ...missing].sort((a, b) => a.index - b.index);
}

/** Late segments, and segments whose dispatch began further apart than START_SPREAD_MS. */
function startWarnings(files: readonly NamedRaw[]): string[] {
  const warnings = files.flatMap((f) =>
    f.raw.lateStartMs === undefined
      ? []
      : [
          `${f.name} (segment ${f.raw.segment.index}/${f.raw.segment.count}) began ${seconds(f.raw.lateStartMs)} after its start time`,
        ],
  );
  const starts = files.map((f) => f.raw.snapshot.startedAt);
  const spread = Math.max(...starts) - Math.min(...starts);
  if (spread > START_SPREAD_MS) {
    const earliest = files.reduce((a, b) =>
      b.raw.snapshot.startedAt < a.raw.snapshot.startedAt ? b : a,
    );
    const latest = files.reduce((a, b) =>
      b.raw.snapshot.startedAt > a.raw.snapshot.startedAt ? b : a,
    );
    warnings.push(
      `the segments' starts differ by ${seconds(spread)} (${earliest.name} first, ${latest.name} last): the merged run spans both, and its rate is lower than the plan's`,
    );
  }
  return warnings;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The HTTP debug logs' counts summed over the segments that had one; absent when none did. */
function httpDebugCounts(files: readonly NamedRaw[]): { httpDebug?: HttpDebugCounts } {
  const logs = files.flatMap((f) => (f.raw.httpDebug === undefined ? [] : [f.raw.httpDebug]));
  if (logs.length === 0) return {};
  return {
    httpDebug: {
      written: logs.reduce((n, log) => n + log.written, 0),
      dropped: logs.reduce((n, log) => n + log.dropped, 0),
    },
  };
}

/** The earliest abort among the segments (each judged its own share), if any segment aborted. */
function firstAbort(files: readonly NamedRaw[]): { aborted?: ThresholdAbort } {
  const aborts = files.flatMap((f) => (f.raw.aborted === undefined ? [] : [f.raw.aborted]));
  if (aborts.length === 0) return {};
  return { aborted: aborts.reduce((first, a) => (a.atMs < first.atMs ? a : first)) };
}

function coverageProblems(files: readonly NamedRaw[], partial: boolean): string[] {
  if (files.length === 0) return ['no result files given'];
  const problems: string[] = [];
  const first = files[0]!;
  for (const file of files.slice(1)) {
    if (file.raw.fingerprint !== first.raw.fingerprint) {
      problems.push(
        `${file.name} is from a different plan than ${first.name} (fingerprint ${file.raw.fingerprint} ≠ ${first.raw.fingerprint})`,
      );
    } else if (file.raw.segment.count !== first.raw.segment.count) {
      problems.push(
        `${file.name} is segment ${file.raw.segment.index}/${file.raw.segment.count}, but ${first.name} is one of ${first.raw.segment.count}`,
      );
    } else if (file.raw.startAt !== first.raw.startAt) {
      problems.push(
        `${file.name} is from another run of the plan than ${first.name} (start time ${startText(file.raw.startAt)} ≠ ${startText(first.raw.startAt)}): a stale file?`,
      );
    } else if (!sameEndpoints(file.raw, first.raw)) {
      // Equal fingerprints with other endpoints: a file edited by hand, which would not merge.
      problems.push(`${file.name} lists other endpoints than ${first.name} for the same plan`);
    }
  }
  if (problems.length > 0) return problems;
  const count = first.raw.segment.count;
  for (let index = 1; index <= count; index++) {
    const holders = files.filter((f) => f.raw.segment.index === index).map((f) => f.name);
    if (holders.length === 0 && !partial)
      problems.push(`segment ${index}/${count} is missing (merge --partial merges without it)`);
    if (holders.length > 1)
      problems.push(
        `segment ${index}/${count} appears ${holders.length} times: ${holders.join(', ')}`,
      );
  }
  return problems;
}

function startText(startAt: number | undefined): string {
  return startAt === undefined ? 'none' : new Date(startAt).toISOString();
}

/** Plan endpoints alike (same names, as many figures), or both named as met (scripts). */
function sameEndpoints(a: RawResult, b: RawResult): boolean {
  if ((a.snapshot.endpointNames === undefined) !== (b.snapshot.endpointNames === undefined))
    return false;
  if (a.snapshot.endpointNames !== undefined) return true;
  return (
    a.snapshot.endpoints.length === b.snapshot.endpoints.length &&
    a.endpointNames.length === b.endpointNames.length &&
    a.endpointNames.every((name, i) => name === b.endpointNames[i])
  );
}

/**
 * The snapshot as if dispatch had begun at `base` (epoch ms, not after its own start): its series
 * (the run's, and its endpoints') moves by the whole seconds between the starts, and its elapsed time grows by the gap, so the
 * merged run spans from the earliest start to the latest end.
 */
export function alignTo(snapshot: ShardSnapshot, base: number): ShardSnapshot {
  const gapMs = snapshot.startedAt - base;
  if (gapMs === 0) return snapshot;
  const seconds = Math.round(gapMs / 1000);
  return {
    ...snapshot,
    startedAt: base,
    elapsedMs: snapshot.elapsedMs + gapMs,
    ...shiftActive(snapshot, gapMs * 1000),
    ...(snapshot.scenarios === undefined
      ? {}
      : {
          scenarios: Object.fromEntries(
            Object.entries(snapshot.scenarios).map(([name, own]) => [
              name,
              { ...own, ...shiftActive(own, gapMs * 1000) },
            ]),
          ),
        }),
    series: snapshot.series.map((s) => ({ ...s, second: s.second + seconds })),
    endpoints: snapshot.endpoints.map((e) =>
      e.seconds === undefined
        ? e
        : { ...e, seconds: e.seconds.map((s) => ({ ...s, second: s.second + seconds })) },
    ),
  };
}
