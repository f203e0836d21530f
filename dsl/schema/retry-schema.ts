/**
 * Retries of failed requests (spec §7.3): 429, 5xx, timeouts and resets are retried with
 * exponential backoff and jitter, within a budget so a 5xx storm is not amplified.
 */
import * as z from 'zod';
import { duration, fraction, positiveInt, positiveNumber } from './fields.js';

/** The `retry` key. */
export function retrySchema() {
  return z.strictObject(
    {
      max_attempts: positiveInt('attempts per request, the first included').default(3),
      backoff: duration('first backoff; doubles each attempt', true).prefault('100ms'),
      max_backoff: duration('longest backoff').prefault('5s'),
      jitter: fraction('share of the backoff randomized').default(0.5),
      budget: fraction('retries allowed as a share of requests').default(0.1),
      min_retries_per_sec: positiveNumber('retries always allowed per second', true).default(10),
    },
    { error: 'a retry mapping' },
  );
}
