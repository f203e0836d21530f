/**
 * `http_debug:` (docs/configuration.md, HTTP debug log): the requests a run writes out as NDJSON,
 * where, and its bounds. `--http-debug[=failed|all]` sets `requests` and `--http-debug-file` the
 * file; flags win over the key, as everywhere.
 */
import * as z from 'zod';
import { HTTP_DEBUG_REQUESTS } from '../../model/plan/http-debug-plan.js';
import { nonEmpty, positiveInt } from './fields.js';

/** Default `max_bytes`: 10 MiB. */
const HTTP_DEBUG_MAX_BYTES = 10 * 1024 * 1024;
/** Default `per_second`: as many lines a second as a scenario's console prints. */
const HTTP_DEBUG_PER_SECOND = 20;

/** The `http_debug` key. */
export function httpDebugSchema() {
  return z.strictObject(
    {
      requests: z
        .enum(HTTP_DEBUG_REQUESTS, {
          error: `one of ${HTTP_DEBUG_REQUESTS.join(', ')} (which requests are written)`,
        })
        .default('failed')
        .describe('failed: the requests counted in http_req_failed; all: every request'),
      file: nonEmpty('the NDJSON file, or - for stderr')
        .default('-')
        .describe(
          'Where the lines go: a file (appended to, created with mode 0600), or - for stderr',
        ),
      max_bytes: positiveInt('bytes written in all')
        .default(HTTP_DEBUG_MAX_BYTES)
        .describe('Bytes written in all; later lines are dropped and counted'),
      per_second: positiveInt('lines a second')
        .default(HTTP_DEBUG_PER_SECOND)
        .describe('Lines written a second per process; the others are dropped and counted'),
    },
    { error: 'an http_debug mapping: { requests, file, max_bytes, per_second }' },
  );
}
