/** Report files written after the run. */
import * as z from 'zod';
import { TAG_KEY } from '../../model/metrics/metric-registry.js';
import { nonEmpty } from './fields.js';

/** The `report` key. */
export const reportSchema = z.strictObject(
  {
    json: nonEmpty('JSON result file').optional(),
    html: nonEmpty('HTML report file').optional(),
    junit: nonEmpty('JUnit XML file').optional(),
    summary_md: nonEmpty('Markdown summary file').optional(),
    raw: nonEmpty('raw mergeable result file').optional(),
    summary_by: z
      .array(
        z.string().regex(TAG_KEY, {
          error: 'a tag key: a letter or _, then letters, digits, _ . -',
        }),
        { error: 'a list of tag keys' },
      )
      .optional()
      .describe(
        'Tags whose values the reports break requests down by (status, group, a tag of yours…), besides those thresholds filter on',
      ),
  },
  { error: 'a report mapping: { json, html, junit, summary_md, raw, summary_by }' },
);
