// The result pipeline keeps its outputs byte for byte: each case of test/fixtures/results/ holds
// the raw files of a run (endpoints of every kind, two segments, named scenarios, a TypeScript
// scenario) and what `barrage merge` made of them when they were recorded
// (scripts/record-result-fixtures.mjs). The built CLI merges them again and must write the same
// text report, JSON result, HTML, JUnit, Markdown and raw result.
import t from 'tap';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/results/', import.meta.url));

/** What merge writes, by file name, as the recorder asked for it. */
const OUTPUTS = {
  'result.json': '--json',
  'report.html': '--html',
  'junit.xml': '--junit',
  'summary.md': '--summary-md',
  'merged.raw': '--raw',
} as const;

for (const name of readdirSync(FIXTURES).sort()) {
  t.test(`${name}: merge writes what it wrote when recorded`, async (t) => {
    const recorded = join(FIXTURES, name);
    const raws = readdirSync(recorded)
      .filter((file) => file.endsWith('.raw') && file !== 'merged.raw')
      .sort();
    const dir = t.testdir({});
    for (const raw of raws) copyFileSync(join(recorded, raw), join(dir, raw));
    const flags = Object.entries(OUTPUTS).flatMap(([file, flag]) => [flag, file]);
    const merged = await runCli(['merge', ...raws, ...flags], { cwd: dir });
    t.notMatch(merged.stderr, /\n\s+at /, 'no stack trace');
    t.equal(merged.stdout, readFileSync(join(recorded, 'report.txt'), 'utf8'), 'the text report');
    for (const file of Object.keys(OUTPUTS)) {
      const now = readFileSync(join(dir, file), 'utf8');
      const then = readFileSync(join(recorded, file), 'utf8');
      // The HTML is large: a diff of it would drown the output; the others show theirs.
      if (file === 'report.html') t.ok(now === then, `${file}, byte for byte`);
      // A stream endpoint's `protocols` moved once, behind its stream fields, when the metric
      // families took them over: the same data, which merge reads in either order.
      else if (file === 'merged.raw') t.same(JSON.parse(now), JSON.parse(then), file);
      else t.equal(now, then, `${file}, byte for byte`);
    }
  });
}
