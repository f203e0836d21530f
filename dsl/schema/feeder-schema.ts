/** Data feeders (spec §2.3): records from a file, merged into each worker's variable store. */
import * as z from 'zod';
import { flag, nonEmpty } from './fields.js';

/** The `feeder` key. */
export function feederSchema() {
  return z.strictObject(
    {
      file: nonEmpty('feeder file, relative to the config file'),
      format: z
        .enum(['csv', 'json', 'ndjson'], { error: 'csv, json or ndjson' })
        .optional()
        .describe('Default: from the file extension'),
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
    { error: 'a feeder mapping: { file, format, order, cycle, types, per }' },
  );
}
