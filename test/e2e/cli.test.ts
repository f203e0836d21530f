import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

t.test('--version and --help', async (t) => {
  // Spawned: the installed bin's start; the rest of the CLI's answers run in process.
  const v = await runCli(['--version']);
  t.equal(v.code, 0);
  t.equal(v.stdout.trim(), version);
  const help = await runInProcess(['--help']);
  t.equal(help.code, 0);
  for (const command of ['run', 'validate', 'serve', 'demo', 'merge', 'compare'])
    t.match(help.stdout, new RegExp(`barrage ${command}`), command);
  const runHelp = await runInProcess(['run', '--help']);
  t.match(runHelp.stdout, /\$ barrage run \[CONFIG\]/);
  t.match(runHelp.stdout, /--threshold/);
  t.match(runHelp.stdout, /--json-output/);
  const demoHelp = await runInProcess(['demo', '--help']);
  t.equal(demoHelp.code, 0, demoHelp.stderr);
  t.match(demoHelp.stdout, /Run a showcase load test against the embedded target/);
});

t.test('run is the default command: a configuration without a command name runs', async (t) => {
  // main.ts registers a named command by its name alone; with no name, run keeps its default path.
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const dir = t.testdir({ 'load.yaml': `target: http://127.0.0.1:${port}/\nrequests: 3\n` });
  for (const argv of [['load.yaml'], ['run', 'load.yaml']]) {
    const result = await runInProcess([...argv, '--json-output'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    t.equal((JSON.parse(result.stdout) as { total: number }).total, 3, argv.join(' '));
  }
});

t.test('demo runs its load through run: a named command brings the commands it runs', async (t) => {
  // main.ts registers only the command the first argument names, plus those it runs itself.
  const demo = await runInProcess(['demo', '--duration', '1s', '--json-output']);
  const result = JSON.parse(demo.stdout) as {
    total: number;
    failures: number;
    thresholds?: { failed: number };
  };
  // The demo's latency thresholds may fail on a busy machine: then, and only then, exit 1.
  t.equal(demo.code, (result.thresholds?.failed ?? 0) > 0 ? 1 : 0, demo.stderr);
  t.ok(result.total > 0, 'the demo sent requests');
  t.equal(result.failures, 0);
});

t.test('validate as a user runs it: precedence flag > env > file, exit codes', async (t) => {
  const dir = t.testdir({ 'load.yaml': 'target: http://127.0.0.1:9\nconcurrency: 5\n' });
  const env = { BARRAGE_CONCURRENCY: '7' };
  t.match(
    (await runInProcess(['validate', 'load.yaml', '-c', '9'], { cwd: dir, env })).stdout,
    /concurrency\s+9\s+--concurrency/,
  );
  t.match(
    // Spawned: the variable as the process starts with it.
    (await runCli(['validate', 'load.yaml'], { cwd: dir, env })).stdout,
    /concurrency\s+7\s+BARRAGE_CONCURRENCY/,
  );
  t.match(
    (await runInProcess(['validate', 'load.yaml'], { cwd: dir })).stdout,
    /concurrency\s+5\s+load\.yaml:2:14/,
  );
  const bad = await runInProcess(['validate', 'load.yaml', '--concurrency=-3'], { cwd: dir });
  t.equal(bad.code, 1);
  t.equal(bad.stdout, '');
  t.match(bad.stderr, /--concurrency: concurrency: expected a positive integer/);
});

t.test('an unknown command or option is an error on stderr, exit 1', async (t) => {
  const result = await runInProcess(['run', '--nope']);
  t.equal(result.code, 1);
  t.equal(result.stdout, '');
  t.match(result.stderr, /--nope/);
});

t.test('the bin starts plain node: isolated-vm runs only in child processes', async (t) => {
  // --no-node-snapshot (which isolated-vm needs) would triple the start-up of every command.
  const first = readFileSync(new URL('../../dist/bin.js', import.meta.url), 'utf8').split('\n')[0];
  t.equal(first, '#!/usr/bin/env node');
});
