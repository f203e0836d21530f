/**
 * Figures of streamed responses, of a run or an endpoint: Server-Sent Events
 * (sse_time_to_first_event, sse_event_gap, sse_events) and chunked bodies
 * (stream_time_to_first_chunk, stream_chunk_gap, stream_chunks). Each kind's are made on its first
 * event or chunk, so an endpoint that is no stream costs nothing.
 */
import type { StreamKind } from '../../model/plan/endpoint-plan.js';
import { CachedHistogram } from './histogram.js';
import type { StreamSnapshot } from './snapshot.js';

/** The snapshot fields of each stream kind: time to its first piece, the gaps, the pieces. */
export const STREAM_FIELDS = {
  sse: { first: 'sseFirstEvent', gap: 'sseEventGap', count: 'sseEvents' },
  chunks: { first: 'streamFirstChunk', gap: 'streamChunkGap', count: 'streamChunks' },
} as const satisfies Record<StreamKind, Readonly<Record<'first' | 'gap' | 'count', string>>>;

/** A stream trend's snapshot field. */
export type StreamTrendField = (typeof STREAM_FIELDS)[StreamKind]['first' | 'gap'];

/** A stream count's snapshot field. */
export type StreamCountField = (typeof STREAM_FIELDS)[StreamKind]['count'];

/** Events or chunks of one kind of stream, their first's times and the gaps between them. */
export class StreamFigures {
  readonly #first = new CachedHistogram();
  readonly #gap = new CachedHistogram();
  #pieces = 0;

  constructor(private readonly kind: StreamKind) {}

  /** One event or chunk: its stream's first when `firstUs` >= 0, else `gapUs` after the last. */
  record(firstUs: number, gapUs: number): void {
    this.#pieces++;
    if (firstUs >= 0) this.#first.recordMicros(firstUs);
    else this.#gap.recordMicros(gapUs);
  }

  /** The snapshot fields (histograms "" when empty: a stream of one piece has no gap). */
  fields(): StreamSnapshot {
    const { first, gap, count } = STREAM_FIELDS[this.kind];
    return { [first]: this.#first.encode(), [gap]: this.#gap.encode(), [count]: this.#pieces };
  }
}

/** Each kind's figures, made on its first event or chunk. */
export type StreamSet = Partial<Record<StreamKind, StreamFigures>>;

/** Records an event or a chunk of a `kind` stream into a set. */
export function recordPiece(
  set: StreamSet,
  kind: StreamKind,
  firstUs: number,
  gapUs: number,
): void {
  (set[kind] ??= new StreamFigures(kind)).record(firstUs, gapUs);
}

/** The fields of a set's figures: none for a kind that had no event or chunk. */
export function streamFields(set: StreamSet): StreamSnapshot {
  return { ...set.sse?.fields(), ...set.chunks?.fields() };
}
