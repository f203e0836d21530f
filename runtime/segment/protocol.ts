/**
 * The messages between the main thread and a segment's worker thread (or child process): one typed union per
 * direction (STYLE.md, vitest's worker boundary). Snapshots travel batched and encoded, a few per
 * second, never one message per sample.
 */
import type { RunFailure } from '../../model/errors/run-failure.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import type { ShardSnapshot } from '../metrics/snapshot.js';
import type { LiveState } from './live-state.js';
import type { SegmentOutcome } from './run-segment.js';
import type { SegmentSpec } from '../split/segment-spec.js';
import type { DataPart } from './shared-data-transfer.js';

/** Bumped when a message changes shape. */
export const PROTOCOL_VERSION = 1;

/** What the worker thread is started with (its workerData). */
export interface SegmentStart {
  readonly version: typeof PROTOCOL_VERSION;
  readonly spec: SegmentSpec;
  /** Period of live snapshots, ms. */
  readonly snapshotEveryMs: number;
}

/**
 * Main thread → segment. `go` starts dispatch once every thread is ready, so all begin together;
 * for a TypeScript scenario it carries setup()'s data. A child process gets its SegmentStart as
 * the first message (`start`).
 */
export type HostToSegment =
  | { readonly type: 'go'; readonly setup?: unknown }
  | { readonly type: 'stop' }
  | { readonly type: 'hard-stop' }
  | { readonly type: 'start'; readonly start: SegmentStart }
  /** A child process's shared data, announced before its `start` (its bytes follow on a pipe). */
  | DataPart;

/** Segment → main thread. */
export type SegmentToHost =
  | { readonly type: 'ready'; readonly setup?: unknown }
  | { readonly type: 'script-error'; readonly text: string }
  | { readonly type: 'console'; readonly line: string }
  /** A record of the HTTP debug log (at most `per_second` a second: the segment's bound). */
  | { readonly type: 'http-debug'; readonly record: ExchangeRecord }
  | { readonly type: 'snapshot'; readonly snapshot: ShardSnapshot; readonly live: LiveState }
  | { readonly type: 'done'; readonly outcome: SegmentOutcome }
  /** The segment failed before its outcome: setup() failed, or it threw (a bug). */
  | { readonly type: 'failed'; readonly failure: RunFailure };
