/**
 * `barrage init [URL]` as a user runs it: the starter file is written, validates as written (the
 * TypeScript one type-checked), runs against the URL it names, and an existing file is never
 * overwritten.
 */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countingTarget } from '../helpers/counting-target.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

t.test('a YAML starter for a URL: validates, runs against it, is not overwritten', async (t) => {
  const target = await countingTarget(t);
  const dir = t.testdir({});
  // Spawned, as a user runs it; the rest in process.
  const init = await runCli(['init', `${target.url}/api/items?page=1`], { cwd: dir });
  t.equal(init.code, 0, { stderr: init.stderr });
  t.match(init.stdout, /wrote load\.yaml\nnext: barrage validate load\.yaml/);
  const text = readFileSync(join(dir, 'load.yaml'), 'utf8');
  t.match(
    text,
    /^# yaml-language-server: \$schema=\.\/node_modules\/barrage-cli\/barrage\.schema\.json\n/,
  );
  t.match(text, new RegExp(`target: '${target.url}'`));
  const validate = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
  t.equal(validate.code, 0, 'the starter validates', { stderr: validate.stderr });
  const run = await runInProcess(['run', 'load.yaml', '-n', '3', '-c', '1', '--quiet'], {
    cwd: dir,
  });
  t.equal(run.code, 0, { stderr: run.stderr });
  t.same(target.urls, ['/api/items?page=1', '/api/items?page=1', '/api/items?page=1']);

  writeFileSync(join(dir, 'load.yaml'), 'mine\n');
  const again = await runInProcess(['init', target.url], { cwd: dir });
  t.equal(again.code, 1);
  t.equal(
    again.stderr,
    'barrage: init: cannot write load.yaml: it exists; barrage init never overwrites a file\n',
  );
  t.equal(readFileSync(join(dir, 'load.yaml'), 'utf8'), 'mine\n', 'the file is untouched');
});

t.test('a TypeScript starter (--ts) type-checks and validates', async (t) => {
  const dir = t.testdir({});
  const init = await runInProcess(['init', 'https://staging.example.com/api', '--ts'], {
    cwd: dir,
  });
  t.equal(init.code, 0, { stderr: init.stderr });
  t.match(
    init.stdout,
    /wrote load\.ts\nnext: barrage validate load\.ts --target https:\/\/staging\.example\.com/,
  );
  const validate = await runInProcess(
    ['validate', 'load.ts', '--target', 'https://staging.example.com'],
    { cwd: dir, typecheck: true },
  );
  t.equal(validate.code, 0, 'the scenario type-checks and validates', { stderr: validate.stderr });
  t.match(readFileSync(join(dir, 'load.ts'), 'utf8'), /await http\.get\("\/api"\)/);
});

t.test('-o names the file; the default URL; a URL that is not http is refused', async (t) => {
  const dir = t.testdir({});
  const init = await runInProcess(['init', '-o', 'smoke.yaml'], { cwd: dir });
  t.equal(init.code, 0, { stderr: init.stderr });
  t.match(readFileSync(join(dir, 'smoke.yaml'), 'utf8'), /target: 'http:\/\/127\.0\.0\.1:8080'/);
  const bad = await runInProcess(['init', 'ftp://files.example'], { cwd: dir });
  t.equal(bad.code, 1);
  t.match(bad.stderr, /URL: expected an http or https URL, .* got "ftp:\/\/files\.example"/);
});
