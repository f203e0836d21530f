/**
 * `barrage completion bash|zsh|fish`: the script the built binary prints, loaded in the shell,
 * offers the commands, the named command's flags (run's after a file, the default command), and
 * the shells after `completion`. bash is always there; zsh and fish are tested where installed
 * (.ci/run installs both). zsh's completion builtins only run inside its completion widget, so
 * the test stands in for compadd, _describe and _files, printing what they were given.
 */
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

/** The script of `shell`, written to a file of the test's folder `dir`. */
async function script(t: Test, shell: string, dir: string): Promise<string> {
  const printed = await runCli(['completion', shell]);
  t.equal(printed.code, 0, `barrage completion ${shell}`, { stderr: printed.stderr });
  const file = join(dir, `.barrage.${shell}`);
  writeFileSync(file, printed.stdout);
  return file;
}

/** Runs `program` in `shell`; its stdout's lines. */
function offered(t: Test, shell: string, program: string, cwd: string): string[] {
  const run = spawnSync(shell, ['-c', program], { encoding: 'utf8', cwd, timeout: 30_000 });
  t.equal(run.status, 0, `${shell} ran`, { stderr: run.stderr });
  return run.stdout.split('\n').filter((line) => line !== '' && line !== '--');
}

function installed(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

t.test('an unknown shell is refused', async (t) => {
  const result = await runCli(['completion', 'powershell']);
  t.equal(result.code, 1);
  t.match(result.stderr, /SHELL: expected one of bash, zsh, fish, got "powershell"/);
});

t.test('bash', async (t) => {
  const dir = t.testdir({ 'load.yaml': 'target: http://127.0.0.1:9\n' });
  const file = await script(t, 'bash', dir);
  const complete = (words: string): string[] =>
    offered(
      t,
      'bash',
      `source ${JSON.stringify(file)}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _barrage; printf '%s\\n' "\${COMPREPLY[@]}"`,
      dir,
    );
  t.same(complete('barrage val'), ['validate'], 'a command');
  t.same(complete('barrage lo'), ['load.yaml'], 'a configuration file: barrage load.yaml');
  t.same(complete('barrage run --ta'), ['--target']);
  t.same(complete('barrage validate --thres'), ['--threshold']);
  t.same(complete('barrage load.yaml --sm'), ['--smoke'], "run's flags after a file");
  t.same(complete('barrage completion f'), ['fish']);
  t.same(complete('barrage help in'), ['init']);
  t.same(complete('barrage init --t'), ['--ts'], "init's own flags");
});

t.test('zsh', { skip: installed('zsh') ? false : 'zsh is not installed' }, async (t) => {
  const dir = t.testdir({});
  const file = await script(t, 'zsh', dir);
  const stubs = `compadd() { print -l -- "$@" }
_describe() { local -a list; list=("\${(@P)2}"); print -l -- "\${list[@]%%:*}" }
_files() { print -- '<files>' }`;
  const complete = (words: string, prefix: string): string[] =>
    offered(
      t,
      'zsh',
      `${stubs}\nsource ${JSON.stringify(file)}\nwords=(${words}); CURRENT=\${#words}; PREFIX=${prefix}; _barrage`,
      dir,
    );
  const first = complete("barrage ''", "''");
  t.ok(first.includes('validate') && first.includes('completion'), 'the commands');
  t.ok(first.includes('<files>'), 'and files');
  const run = complete('barrage run --ta', '--ta');
  t.ok(run.includes('--target') && run.includes('--smoke') && run.includes('-c'), "run's flags");
  t.notOk(run.includes('--port'), "not serve's");
  t.same(complete('barrage completion ""', '""'), ['bash', 'zsh', 'fish']);
});

t.test('fish', { skip: installed('fish') ? false : 'fish is not installed' }, async (t) => {
  const dir = t.testdir({ 'load.yaml': 'target: http://127.0.0.1:9\n' });
  const file = await script(t, 'fish', dir);
  const complete = (line: string): string[] =>
    offered(
      t,
      'fish',
      `source ${JSON.stringify(file)}; complete -C ${JSON.stringify(line)}`,
      dir,
    ).map((entry) => entry.split('\t', 1)[0]!);
  t.same(complete('barrage val'), ['validate']);
  t.same(complete('barrage run --ta'), ['--target']);
  t.same(complete('barrage load.yaml --smo'), ['--smoke'], "run's flags after a file");
  t.same(complete('barrage serve --p'), ['--port']);
  t.same(complete('barrage completion '), ['bash', 'fish', 'zsh']);
});
