/**
 * Every report file a run can write, for tests that sweep a run's outputs for a secret: the
 * `report:` line that asks for them all, and their text once written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FILES = {
  json: 'report.json',
  html: 'report.html',
  junit: 'junit.xml',
  summary_md: 'summary.md',
  raw: 'raw.json',
};

/** The `report:` line of a configuration that writes every report file in the working directory. */
export const ALL_REPORTS = `report: { ${Object.entries(FILES)
  .map(([key, file]) => `${key}: ${file}`)
  .join(', ')} }\n`;

/** The text of every report file in `dir`, joined. */
export function reportTexts(dir: string): string {
  return Object.values(FILES)
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}
