// Signals by design (docs/reports.md, Signals): the first SIGINT, SIGTERM or SIGHUP stops the
// run and gives in-flight work the stop grace; a second signal, or the grace's end, writes every
// report from the figures so far and exits 130. The message names the signal. Against a target
// whose event stream stalls for 60 s under a 60 s timeout, nothing else would end the run.
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { eventually } from '../helpers/eventually.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** An SSE target that sends one event, then nothing for 60 s; counts the streams it opened. */
async function stalling(t: Test) {
  const state = { streams: 0, url: '' };
  const open = new Set<ServerResponse>();
  const server = createServer((_req, res) => {
    state.streams++;
    open.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"n":1}\n\n');
    const timer = setTimeout(() => res.end(), 60_000);
    res.on('close', () => {
      clearTimeout(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const res of open) res.destroy();
    server.close();
  });
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return state;
}

const CONFIG = (url: string) =>
  `target: ${url}\nconcurrency: 1\nduration: 5m\ntimeout: 60s\nendpoints:\n  - { name: stream, url: /sse, stream: sse }\n`;

/** Runs the stalled load, sending `signals` in turn once the stream is open. */
async function stalledRun(t: Test, signals: NodeJS.Signals[], extra: string[] = []) {
  const server = await stalling(t);
  const dir = t.testdir({ 'load.yaml': CONFIG(server.url) });
  let stderr = '';
  const send = async (child: ChildProcess) => {
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await eventually(() => server.streams >= 1);
    for (const [i, signal] of signals.entries()) {
      child.kill(signal);
      await eventually(
        () => stderr.includes(i === 0 ? 'stopping' : 'exiting') || child.exitCode !== null,
      );
    }
  };
  const result: SpawnResult = await runCli(
    ['run', 'load.yaml', '--json', 'r.json', '--html', 'r.html', ...extra],
    { cwd: dir, killAfterMs: 90_000, onSpawn: (child) => void send(child) },
  );
  t.equal(result.signal, null, 'barrage ended by itself');
  t.equal(result.code, 130, 'exit 130: cut short');
  t.ok(existsSync(join(dir, 'r.html')), 'the HTML report was written');
  const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { interrupted?: boolean };
  t.equal(json.interrupted, true, 'the JSON result says interrupted');
  t.equal(server.streams, 1, 'no request after the stop');
  return result;
}

t.test('SIGTERM under a stalled 60 s stream ends at the stop grace, reports written', async (t) => {
  const result = await stalledRun(t, ['SIGTERM'], ['--stop-grace', '2s']);
  t.match(
    result.stderr,
    /SIGTERM: stopping; in-flight work gets up to 2s \(SIGTERM again to stop now\)/,
  );
  t.notMatch(result.stderr, /Ctrl\+C/, 'no Ctrl+C after a SIGTERM');
  t.match(result.stderr, /the stop grace \(2s\) ended: writing the reports and exiting/);
});

const MATRIX: [NodeJS.Signals[], RegExp][] = [
  [['SIGINT', 'SIGINT'], /SIGINT: stopping; .*\(Ctrl\+C again to stop now\)/],
  [['SIGTERM', 'SIGTERM'], /a second signal \(SIGTERM\): writing the reports and exiting/],
  [['SIGTERM', 'SIGINT'], /SIGTERM: stopping; .*\(SIGTERM again to stop now\)/],
  [['SIGHUP', 'SIGTERM'], /SIGHUP: stopping[\s\S]*a second signal \(SIGTERM\)/],
];

for (const [signals, message] of MATRIX) {
  t.test(`${signals.join(' then ')}: reports from the figures so far, exit 130`, async (t) => {
    const result = await stalledRun(t, signals);
    t.match(result.stderr, message);
    t.match(result.stderr, /in-flight work gets up to 20s/, 'the default grace, 20 s');
  });
}

t.test('the watchdog thread ends a process whose main thread never answers', async (t) => {
  // Built to plain JavaScript and run without tsx, as the shipped binary runs it (a loader's
  // hooks would need the blocked main thread to start the worker).
  const dir = t.testdir({});
  buildSync({
    entryPoints: [fileURLToPath(new URL('../../cli/stop-watchdog.ts', import.meta.url))],
    outfile: join(dir, 'stop-watchdog.mjs'),
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const code = `import { startStopWatchdog } from './stop-watchdog.mjs';
startStopWatchdog(Date.now() + 300);
for (const end = Date.now() + 60_000; Date.now() < end; );`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A safety net only: SIGTERM, so the watchdog's SIGKILL is told apart from it.
  const safety = setTimeout(() => child.kill('SIGTERM'), 50_000);
  const [, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (code, signal) => resolve([code, signal])),
  );
  clearTimeout(safety);
  t.equal(signal, 'SIGKILL', 'ended by the watchdog');
  t.match(stderr, /the stop grace ended and the reports could not be written in time/);
});
