import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runCli } from '../helpers/run-cli.js';
import { checkJunitSchema, xmllintSkip } from '../helpers/xmllint.js';

t.test(
  'merge writes the HTML, JUnit and Markdown reports a single run writes',
  { skip: xmllintSkip(process.env) },
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const config = `target: ${server.url}/delay/1\nrequests: 40\nconcurrency: 2\nthresholds: ["http_requests:count == 40"]\n`;
    const dir = t.testdir({ 'load.yaml': config });
    for (const i of [1, 2]) {
      const segment = await runCli(
        ['run', 'load.yaml', '--segment', `${i}/2`, '--raw', `s${i}.raw`, '--quiet'],
        { cwd: dir },
      );
      t.equal(segment.code, 0, `segment ${i} leaves the whole-run threshold to the merge`);
    }
    const merged = await runCli(
      ['merge', 's1.raw', 's2.raw', '--html', 'f.html', '--junit', 'g.xml', '--summary-md', 'h.md'],
      { cwd: dir },
    );
    t.equal(merged.code, 0, `the merged run passes: ${merged.stderr}`);
    // The segments ran one after the other: when their starts lie over a second apart, merge
    // says so (docs/distributed.md), and nothing else.
    const startsApart = /^barrage: warning: the segments' starts differ by [^\n]*\n/m;
    t.equal(merged.stderr.replace(startsApart, ''), '', 'nothing else on stderr');
    t.match(merged.stdout, /Total Requests: 40\n/, 'the text report on stdout');
    const html = readFileSync(join(dir, 'f.html'), 'utf8');
    t.match(html, /<!doctype html>/i, 'an HTML report');
    t.match(html, /http_requests:count == 40/, 'with the threshold');
    const junit = readFileSync(join(dir, 'g.xml'), 'utf8');
    const schema = checkJunitSchema(junit, dir, 'checked.xml');
    t.ok(schema.ok, `the JUnit report is valid: ${schema.messages}`);
    t.match(junit, /tests="1" failures="0"/, 'one passing threshold test case');
    const markdown = readFileSync(join(dir, 'h.md'), 'utf8');
    t.match(markdown, /✅/, 'the Markdown summary says it passed');
    t.match(markdown, /\| 40 \|/, 'with the merged total');
  },
);
