/** Data feeders (spec §2.3): records from a file, merged into each worker's variable store. */
import * as z from 'zod';
import { flag, nonEmpty } from './fields.js';

/** The `feeder` key. */
export function feederSchema() {
  return z
    .strictObject(
      {
        file: nonEmpty('feeder file, relative to the config file'),
        format: z
          .enum(['csv', 'json', 'ndjson', 'sharegpt'], { error: 'csv, json, ndjson or sharegpt' })
          .optional()
          .describe(
            'Default: from the file extension; sharegpt: a ShareGPT dataset, each conversation a record of prompt, messages (and max_tokens) (docs/llm.md)',
          ),
        max_tokens: z
          .union([z.int().min(1), z.literal('reply')], {
            error: 'a whole number ≥ 1, or reply',
          })
          .optional()
          .describe(
            "sharegpt only: each record's max_tokens, a fixed count or reply (the reply's length, estimated at 4 characters a token)",
          ),
        order: z
          .enum(['sequential', 'random', 'shuffle'], { error: 'sequential, random or shuffle' })
          .default('sequential')
          .describe('sequential: one global order shared by all workers'),
        cycle: flag('start over when the records run out; false stops the run').default(true),
        types: z
          .record(
            z.string(),
            z.enum(['string', 'number', 'boolean', 'json'], {
              error: 'string, number, boolean or json',
            }),
          )
          .optional()
          .describe(
            'CSV columns sent as JSON numbers, booleans or values in a JSON body (checked when the file is read); every other column is text',
          ),
        per: z
          .enum(['worker', 'iteration'], { error: 'worker or iteration' })
          .optional()
          .describe(
            'worker: one record per worker, taken before its setup endpoints; iteration: a new record each iteration. Default: worker when an endpoint has setup: true, iteration otherwise',
          ),
      },
      { error: 'a feeder mapping: { file, format, max_tokens, order, cycle, types, per }' },
    )
    .refine((f) => f.max_tokens === undefined || f.format === 'sharegpt', {
      error: 'max_tokens only with format: sharegpt',
      path: ['max_tokens'],
    });
}
