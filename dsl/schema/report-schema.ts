/** Report files written after the run. */
import * as z from 'zod';
import { nonEmpty } from './fields.js';

/** The `report` key. */
export const reportSchema = z.strictObject(
  {
    json: nonEmpty('JSON result file').optional(),
    html: nonEmpty('HTML report file').optional(),
    junit: nonEmpty('JUnit XML file').optional(),
    summary_md: nonEmpty('Markdown summary file').optional(),
    raw: nonEmpty('raw mergeable result file').optional(),
  },
  { error: 'a report mapping: { json, html, junit, summary_md, raw }' },
);
