/**
 * Every example README.md and docs/*.md mark as complete (`<!-- example -->` before the fence,
 * test/helpers/doc-examples.ts) is validated as a user would check it: `barrage validate` on the
 * block written to a file (in process for YAML and JSON; the built binary for TypeScript
 * scenarios, type-checked by its compiler child). The
 * block's folder holds the data files the examples name (test/fixtures/doc-examples/, and the
 * shipped scenarios/users.csv, which the README's feeder example reads), each
 * `${NAME}` it reads is set, and `--target` is given (examples leave the host to the reader).
 */
import t from 'tap';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurationsOf, documentationPages, examplesOf } from '../helpers/doc-examples.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'test', 'fixtures', 'doc-examples');
const examples = documentationPages(ROOT).flatMap(([name, text]) => examplesOf(text, name));

t.test('the marked examples are found on the pages that have them', async (t) => {
  t.ok(examples.length >= 25, `${examples.length} examples`);
  const languages = new Set(examples.map((e) => e.language));
  t.same([...languages].sort(), ['json', 'ts', 'yaml'], 'YAML, JSON and TypeScript examples');
  const pages = new Set(examples.map((e) => e.where.split(':')[0]));
  for (const page of ['README.md', 'docs/configuration.md', 'docs/scenarios.md', 'docs/outputs.md'])
    t.ok(pages.has(page), `${page} has examples`);
});

t.test('a marked block is read as the marker says', async (t) => {
  const markdown = [
    '<!-- example: alternatives -->',
    '',
    '```yaml',
    'pattern: { type: ramp,',
    '  from: 1, to: 2, duration: 1s }',
    'proxy: false',
    '```',
    '<!-- example: endpoints -->',
    '```yaml',
    '- { url: / }',
    '```',
  ].join('\n');
  const [alternatives, endpoints] = examplesOf(markdown, 'x.md');
  t.same(configurationsOf(alternatives!), [
    'pattern: { type: ramp,\n  from: 1, to: 2, duration: 1s }\n',
    'proxy: false\n',
  ]);
  t.same(configurationsOf(endpoints!), ['endpoints:\n  - { url: / }\n']);
  t.throws(() => examplesOf('<!-- example -->\ntext', 'y.md'), /y\.md:1: .* not before a fence/);
});

for (const example of examples) {
  t.test(`${example.where} (${example.language}) validates`, async (t) => {
    const configurations = configurationsOf(example);
    for (const [index, text] of configurations.entries()) {
      const dir = t.testdir({});
      cpSync(FIXTURES, dir, { recursive: true });
      cpSync(join(ROOT, 'scenarios', 'users.csv'), join(dir, 'users.csv'));
      const file = join(dir, `example.${example.language}`);
      writeFileSync(file, text);
      const env = Object.fromEntries([...text.matchAll(/\$\{(\w+)/g)].map((m) => [m[1]!, 'x1']));
      const input = example.language === 'ts' ? ['--scenario', file] : [file];
      const argv = ['validate', ...input, '--target', 'http://127.0.0.1:9'];
      const result =
        example.language === 'ts'
          ? await runCli(argv, { cwd: dir, env, typecheck: true })
          : await runInProcess(argv, { cwd: dir, env });
      const label = configurations.length > 1 ? `alternative ${index + 1}` : 'the example';
      t.equal(result.code, 0, `${label} is valid`, { stderr: result.stderr, text });
      t.match(result.stdout, /Configuration is valid/);
    }
  });
}
