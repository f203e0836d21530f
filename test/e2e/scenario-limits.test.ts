/**
 * A scenario never outgrows or outlives the user's limits (docs/scenarios.md, "Limits"): each
 * test runs the built CLI, as a user does, against targets on 127.0.0.1, and would fail were
 * the bound it checks gone.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { eventually } from '../helpers/eventually.js';
import { childrenOf, cpuTicks, isRunning } from '../helpers/processes.js';
import { BIN, runCli, type SpawnResult } from '../helpers/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/scenarios/', import.meta.url));
/** What a scripted segment's child process runs (dist of this checkout). */
const CHILD_ENTRY = fileURLToPath(new URL('../../dist/child-entry.js', import.meta.url));

interface JsonResult {
  total: number;
  successes: number;
  failures: number;
  interrupted?: boolean;
  errors: Record<string, number>;
  iterations_failed: number;
  iteration_errors: Record<string, number>;
  checks?: { by_name: Record<string, { passes: number; fails: number }> };
}

const json = (r: SpawnResult): JsonResult => JSON.parse(r.stdout) as JsonResult;

async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

/** A server on 127.0.0.1 answering every request with `handler`; closed with the test. */
async function serve(
  t: Test,
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** `barrage run --scenario fixture --json-output` against `url`. */
function runScenario(file: string, url: string, ...extra: string[]): Promise<SpawnResult> {
  return runCli(['--scenario', join(FIXTURES, file), '--target', url, '--json-output', ...extra], {
    killAfterMs: 60_000,
  });
}

t.test('WebAssembly is not there: each iteration is a script_error', async (t) => {
  const server = await target(t);
  const result = await runScenario('wasm.ts', server.url, '-n', '3', '-c', '1');
  t.equal(result.signal, null, 'ended by itself');
  t.equal(result.code, 1, 'every iteration failed: the run failed');
  t.match(result.stderr, 'barrage: the run failed: no request was sent: 3 of 3 iterations failed');
  t.same(json(result).iteration_errors, { script_error: 3 });
  t.match(
    result.stderr,
    /script_error: .*wasm\.ts:\d+:\d+: ReferenceError: WebAssembly is not defined/,
  );
  t.equal(server.stats().total, 0, 'no iteration got past it');
});

t.test('nor at the top level, when the options are read', async (t) => {
  const result = await runCli([
    'validate',
    '--scenario',
    join(FIXTURES, 'wasm-options.ts'),
    '--target',
    'http://127.0.0.1:9',
  ]);
  t.equal(result.code, 1);
  t.match(result.stderr, /WebAssembly is not defined/);
});

t.test('vars.set past the bounds throws in the script; the run goes on', async (t) => {
  const server = await target(t);
  const result = await runScenario('variables.ts', server.url, '-n', '2', '-c', '1');
  t.equal(result.code, 1, 'every iteration failed: the run proved nothing');
  const r = json(result);
  t.same(r.iteration_errors, { script_error: 2 });
  for (const [name, count] of Object.entries(r.checks?.by_name ?? {}))
    t.same(count, { passes: 2, fails: 0 }, name);
  t.equal(Object.keys(r.checks?.by_name ?? {}).length, 3);
  t.match(
    result.stderr,
    /script_error: .*variables\.ts:\d+:\d+: Error: vars\.set\("huge"\): refused, the virtual user's variables would pass their bounds \(1000 variables, 1048576 characters/,
  );
});

t.test('an extraction past the bounds fails its request with variable_limit', async (t) => {
  const body = JSON.stringify({ v: 'x'.repeat(600_000) });
  const { url } = await serve(t, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  const result = await runCli(
    [join(FIXTURES, 'extract-limit.yaml'), '--target', url, '-n', '2', '-c', '1', '--json-output'],
    { killAfterMs: 60_000 },
  );
  t.equal(result.code, 0, result.stderr);
  const r = json(result);
  t.equal(r.total, 4, 'both steps of both iterations were sent');
  t.same(r.errors, { variable_limit: 2 }, 'the second step of each');
});

t.test('200,000 unawaited sleeps do not hold a 2 s run', async (t) => {
  const server = await target(t);
  const result = await runScenario('sleeps.ts', server.url, '-d', '2s', '-c', '1');
  t.equal(result.signal, null, 'ended by itself, not killed by the safety net');
  t.equal(result.code, 1, 'every iteration failed: the run proved nothing');
  const r = json(result);
  t.ok(r.iterations_failed > 0);
  t.same(r.iteration_errors, { script_error: r.iterations_failed }, 'every failure at the bound');
  t.match(
    result.stderr,
    /script_error: .*sleeps\.ts:\d+:\d+: Error: sleep: refused, 1000 calls of this virtual user \(sleep, http, ws\) are already waiting; await them/,
    'where the call was made',
  );
});

t.test('a request timeout of 1e12 ms is bounded by the run timeout', async (t) => {
  // Accepts every request and never answers.
  const { url } = await serve(t, () => undefined);
  const result = await runScenario('hung.ts', url, '-d', '2s', '-c', '1', '--timeout', '1s');
  t.equal(result.signal, null, 'ended by itself, not killed by the safety net');
  t.equal(result.code, 1, 'no request succeeded: the run proved nothing');
  t.match(result.stderr, 'barrage: the run failed: none of its');
  const r = json(result);
  t.ok(r.total >= 1);
  t.same(r.errors, { timeout: r.total }, 'each request counted as timeout');
});

/**
 * Starts a spawned run of spin.ts (iterations that hold their thread up to a 60 s CPU limit) and
 * resolves once its child process is spinning, with both pids.
 */
async function spinning(t: Test): Promise<{
  cli: ReturnType<typeof spawn>;
  children: number[];
  /** When barrage exits (its child, holding its stdout and stderr, may live on). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** When its output is closed: by it and by its child. */
  closed: Promise<SpawnResult>;
  stderr: () => string;
}> {
  const server = await target(t);
  const cli = spawn(
    BIN,
    [
      '--scenario',
      join(FIXTURES, 'spin.ts'),
      '--target',
      server.url,
      '-d',
      '120s',
      '-c',
      '1',
      '--timeout',
      '60s',
      '--json-output',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
  );
  let stdout = '';
  let stderr = '';
  cli.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  cli.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    cli.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<SpawnResult>((resolve) =>
    cli.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const safety = setTimeout(() => cli.kill('SIGKILL'), 60_000);
  void exited.then(() => clearTimeout(safety));
  let children: number[] = [];
  await eventually(() => (children = childrenOf(cli.pid!, CHILD_ENTRY)).length > 0);
  // Should the test fail, no spinning child is left behind.
  t.teardown(() =>
    children.forEach((pid) => isRunning(pid, CHILD_ENTRY) && process.kill(pid, 'SIGKILL')),
  );
  // Booted and in its loop: more CPU time than node takes to start (100 ticks a second).
  await eventually(() => children.every((pid) => cpuTicks(pid) > 150), 60_000);
  return { cli, children, exited, closed, stderr: () => stderr };
}

/** Resolves once none of the pids runs the child's entry any more (rejects after 10 s). */
function gone(children: readonly number[]): Promise<void> {
  return eventually(() => children.every((pid) => !isRunning(pid, CHILD_ENTRY)), 10_000);
}

t.test('a second Ctrl+C exits 130 and takes the spinning child with it', async (t) => {
  const { cli, children, exited, closed, stderr } = await spinning(t);
  cli.kill('SIGINT');
  // Two signals sent at once may arrive as one: the second goes once the first was handled.
  await eventually(() => stderr().includes('stopping'));
  cli.kill('SIGINT');
  t.equal((await exited).code, 130, stderr());
  await t.resolves(gone(children), 'no child survives');
  t.equal(json(await closed).interrupted, true, 'the report of what was collected');
});

t.test('a SIGKILLed barrage takes the spinning child with it', async (t) => {
  const { cli, children, exited } = await spinning(t);
  cli.kill('SIGKILL');
  t.equal((await exited).signal, 'SIGKILL');
  await t.resolves(gone(children), 'no child survives');
});
