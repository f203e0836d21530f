/**
 * k6/timers in a scenario (sandbox/isolate/timers.ts, runtime/script/script-sleeps.ts), run in
 * process against a server that counts what the callbacks requested: an iteration waits for its
 * timeouts and for its interval until cleared, a cleared timeout never runs, and a callback that
 * throws fails its iteration.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { phaseServer } from '../helpers/phase-server.js';

const TIMERS = `import { http } from 'barrage';
export default async function (): Promise<void> {
  setTimeout((path: string) => void http.get(path), 40, '/timeout');
  let ticks = 0;
  const id = setInterval(() => {
    ticks++;
    void http.get('/tick/' + ticks);
    if (ticks === 3) clearInterval(id);
  }, 10);
  const never = setTimeout(() => void http.get('/never'), 20);
  clearTimeout(never);
}
`;

const THROWING = `import { http } from 'barrage';
export default async function (): Promise<void> {
  setTimeout(() => {
    throw new Error('from a timer');
  }, 10);
  setTimeout(() => void http.get('/after'), 500);
  await http.get('/before');
}
`;

const run = (source: string, url: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-timers-'));
  writeFileSync(join(dir, 'timers.ts'), source);
  return runInProcess([
    'run',
    '--json-output',
    '--no-dashboard',
    '--scenario',
    join(dir, 'timers.ts'),
    '--target',
    url,
    '-n',
    '2',
    '-c',
    '1',
  ]);
};

const count = (paths: readonly string[]) => {
  const counts: Record<string, number> = {};
  for (const path of paths) counts[path] = (counts[path] ?? 0) + 1;
  return counts;
};

t.test('an iteration waits for its timers; a cleared one never runs', async (t) => {
  const server = await phaseServer(t);
  const result = await run(TIMERS, server.url);
  t.equal(result.code, 0, result.stderr);
  t.same(count(server.seen.map((s) => s.path)), {
    '/timeout': 2,
    '/tick/1': 2,
    '/tick/2': 2,
    '/tick/3': 2,
  });
  const json = JSON.parse(result.stdout) as { total: number; iterations_failed: number };
  t.equal(json.total, 8, 'every request the timers made is counted');
  t.equal(json.iterations_failed, 0);
});

t.test('a callback that throws fails its iteration and clears its timers', async (t) => {
  const server = await phaseServer(t);
  const result = await run(THROWING, server.url);
  const json = JSON.parse(result.stdout) as { iteration_errors: Record<string, number> };
  t.same(json.iteration_errors, { script_error: 2 });
  t.match(result.stderr, 'from a timer');
  t.same(count(server.seen.map((s) => s.path)), { '/before': 2 }, 'the later timer never ran');
});
