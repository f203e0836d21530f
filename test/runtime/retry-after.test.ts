// The wait a 429 or 503 asks for (runtime/failure/retry-after.ts), table-driven: Retry-After in
// seconds or as an HTTP date, the draft-8 RateLimit field, the draft-7 RateLimit-Reset with
// none remaining, the longest of several, and nothing from what does not parse.
import t from 'tap';
import { retryAfterMs } from '../../runtime/failure/retry-after.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');

/** Raw headers as undici gives them, from name/value pairs. */
function raw(...pairs: [string, string][]): Buffer[] {
  return pairs.flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
}

const CASES: readonly [string, Buffer[] | null, number | undefined][] = [
  ['no headers', null, undefined],
  ['none of the fields', raw(['content-type', 'text/plain']), undefined],
  ['Retry-After in seconds', raw(['Retry-After', '3']), 3000],
  ['Retry-After 0', raw(['retry-after', '0']), 0],
  ['Retry-After as a date', raw(['Retry-After', 'Sun, 29 Nov 2026 12:00:05 GMT']), 5000],
  ['Retry-After as a past date', raw(['Retry-After', 'Sun, 29 Nov 2026 11:59:00 GMT']), 0],
  ['Retry-After that is neither', raw(['Retry-After', 'soon']), undefined],
  ['Retry-After negative', raw(['Retry-After', '-5']), undefined],
  ['RateLimit none remaining', raw(['RateLimit', '"default";r=0;t=7']), 7000],
  ['RateLimit some remaining', raw(['RateLimit', '"default";r=4;t=7']), undefined],
  ['RateLimit of two policies', raw(['RateLimit', '"minute";r=0;t=20, "second";r=0;t=1']), 20_000],
  [
    'RateLimit-Reset, none remaining',
    raw(['RateLimit-Remaining', '0'], ['RateLimit-Reset', '4']),
    4000,
  ],
  [
    'RateLimit-Reset, some remaining',
    raw(['RateLimit-Remaining', '2'], ['RateLimit-Reset', '4']),
    undefined,
  ],
  ['the longest asked for', raw(['Retry-After', '2'], ['RateLimit', '"d";r=0;t=9']), 9000],
];

t.test('what a response asks to wait', async (t) => {
  for (const [name, headers, expected] of CASES)
    t.equal(retryAfterMs(headers, NOW), expected, name);
});
