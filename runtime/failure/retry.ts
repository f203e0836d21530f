/**
 * Retry decisions (spec §7.3), pure. Retryable: HTTP 429, HTTP 5xx, timeouts, connection resets.
 * Not retryable: other 4xx, cancellation, invalid requests (and everything else: refused
 * connections, DNS and TLS failures would fail again the same way).
 *
 * Backoff for attempt a (1 = the first retry), base b, cap m, jitter j in [0, 1], u uniform [0, 1):
 *   backoff(a) = min(m, b · 2^(a-1)) · (1 - j · u)
 * so with j = 0.5 each wait is between half and all of the exponential value ("equal jitter").
 */
import type { Random } from '../../model/random.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';

/** True when a failure of this kind (and status) may succeed if tried again. */
export function isRetryable(kind: ErrorKind, status: number): boolean {
  if (kind === 'http_4xx') return status === 429;
  return kind === 'http_5xx' || kind === 'timeout' || kind === 'reset';
}

/** The wait before retry number `attempt` (1-based), in milliseconds. */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  jitter: number,
  random: Random,
): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return exponential * (1 - jitter * random.next());
}
