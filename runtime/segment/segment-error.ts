/** A segment's own error (a bug) as the failure its host reports: the stack, for the bug report. */
import type { RunFailure } from '../../model/errors/run-failure.js';

/** The failure a segment that threw `error` reports. */
export function segmentError(error: unknown): RunFailure {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { code: 'segment_error', message };
}
