/**
 * One live output as the runner drives it (output-runner.ts): it encodes a flush's points into
 * what its receiver takes, then sends that. Encoding is synchronous and reads the points at once;
 * sending is the only wait, and the runner bounds it.
 */
import type { OutputKind } from '../../model/plan/output-plan.js';
import type { Point } from './flush-window.js';

/** A flush: its points, and when it was taken. */
export interface Flush {
  readonly points: readonly Point[];
  /** Wall-clock time of the flush, epoch ms: every sample of it carries this time. */
  readonly timeMs: number;
  /** Wall-clock time the run's dispatch began, epoch ms (counters' start time). */
  readonly startedAt: number;
}

/** An encoded flush, ready to send. */
export interface Payload {
  readonly body: Uint8Array | string;
  /** The samples it carries (one per series and figure sent), counted when it is lost. */
  readonly samples: number;
}

/** A receiver of live metrics. */
export interface OutputSink {
  readonly kind: OutputKind;
  /** Where it sends (a URL without credentials, or a file), for messages. */
  readonly target: string;
  /** The flush as the receiver takes it; undefined when there is nothing to send. */
  encode(flush: Flush): Payload | undefined;
  /** Sends a payload; rejects with a message the user can act on when it was not taken. */
  send(payload: Payload, signal: AbortSignal): Promise<void>;
  /** Releases what the sink holds (a file); called once, after the last send. */
  close(): Promise<void>;
}
