/**
 * What only some plans read responses with (the HTML parser, JSONPath, the event stream parser)
 * is imported for those alone, each costing a start milliseconds to load; whatever runs a plan's
 * requests imports them first: a segment before dispatch, a scenario's setup() and teardown()
 * before their calls (which read `res.json(path)` as iterations do).
 */
import type { Plan } from '../../model/plan/plan.js';
import { importSseReader, readsSse } from '../http/exchange.js';
import { importHtmlQuery, importJsonPath, readsCss, readsJsonPath } from '../vars/extract.js';

/** Imports the readers `plan` may use. */
export async function importPlanReaders(plan: Plan): Promise<void> {
  await Promise.all([
    readsCss(plan) ? importHtmlQuery() : undefined,
    readsJsonPath(plan) ? importJsonPath() : undefined,
    readsSse(plan) ? importSseReader() : undefined,
  ]);
}
