/**
 * Merges the raw results of a distributed run (DESIGN.md §3): the files must come from one plan
 * (same fingerprint) and cover each segment exactly once. Per-second series are aligned on the
 * wall clock first (each process counts seconds from its own dispatch start; with --start-at the
 * offsets are 0), then shards merge exactly.
 */
import { alignEndpoints } from './metrics/align-endpoints.js';
import { mergeSnapshots } from './metrics/merge-stats.js';
import type { ShardSnapshot } from './metrics/snapshot.js';
import type { HttpDebugCounts, RawResult } from './raw-result.js';
import type { ThresholdAbort } from './thresholds/abort-on-fail.js';

/** A raw result and the name it came from (for messages). */
export interface NamedRaw {
  readonly name: string;
  readonly raw: RawResult;
}

/** Every problem found, or the merged result (its `segment` is 1/1: it is the whole run). */
export type MergeOutcome =
  { readonly problems: readonly string[] } | { readonly merged: RawResult };

/** Checks coverage and merges. */
export function mergeRawResults(files: readonly NamedRaw[]): MergeOutcome {
  const problems = coverageProblems(files);
  if (problems.length > 0) return { problems };
  const first = files[0]!.raw;
  const base = files.reduce((min, f) => Math.min(min, f.raw.snapshot.startedAt), Infinity);
  // A TypeScript scenario's segments name their endpoints as they meet them: one table first.
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
    },
  };
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

function coverageProblems(files: readonly NamedRaw[]): string[] {
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
    } else if (!sameEndpoints(file.raw, first.raw)) {
      // Equal fingerprints with other endpoints: a file edited by hand, which would not merge.
      problems.push(`${file.name} lists other endpoints than ${first.name} for the same plan`);
    }
  }
  if (problems.length > 0) return problems;
  const count = first.raw.segment.count;
  for (let index = 1; index <= count; index++) {
    const holders = files.filter((f) => f.raw.segment.index === index).map((f) => f.name);
    if (holders.length === 0) problems.push(`segment ${index}/${count} is missing`);
    if (holders.length > 1)
      problems.push(
        `segment ${index}/${count} appears ${holders.length} times: ${holders.join(', ')}`,
      );
  }
  return problems;
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
    series: snapshot.series.map((s) => ({ ...s, second: s.second + seconds })),
    endpoints: snapshot.endpoints.map((e) =>
      e.seconds === undefined
        ? e
        : { ...e, seconds: e.seconds.map((s) => ({ ...s, second: s.second + seconds })) },
    ),
  };
}
