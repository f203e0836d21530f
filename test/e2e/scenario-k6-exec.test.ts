/**
 * k6/execution's context in a scenario (sandbox/isolate/exec-api.ts), run in process against a
 * server that keeps what each iteration reports: the scenario's name, iteration numbers unique in
 * the scenario, the virtual user's id and its own count; exec.test.abort() stops the run as
 * failed with its reason, and the server sees no iteration after the one that aborted.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { phaseServer } from '../helpers/phase-server.js';

const REPORTING = `import { exec, http } from 'barrage';
export const options = {
  scenarios: { browse: { executor: 'shared-iterations', vus: 2, iterations: 6 } },
};
export default async function (): Promise<void> {
  await http.post('/report', {
    name: exec.scenario.name,
    inTest: exec.scenario.iterationInTest,
    vu: exec.vu.idInTest,
    inScenario: exec.vu.iterationInScenario,
    iter: __ITER,
  });
}
`;

const ABORTING = `import { exec, http } from 'barrage';
export default async function (): Promise<void> {
  await http.post('/report', { inTest: exec.scenario.iterationInTest });
  if (exec.scenario.iterationInTest === 3) exec.test.abort('enough seen');
}
`;

const run = (source: string, url: string, ...extra: string[]) => {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-exec-'));
  writeFileSync(join(dir, 'exec.ts'), source);
  return runInProcess([
    'run',
    '--json-output',
    '--no-dashboard',
    '--scenario',
    join(dir, 'exec.ts'),
    '--target',
    url,
    ...extra,
  ]);
};

interface Report {
  name: string;
  inTest: number;
  vu: number;
  inScenario: number;
  iter: number;
}

t.test('exec tells the scenario, the iteration numbers and the virtual user', async (t) => {
  const server = await phaseServer(t);
  const result = await run(REPORTING, server.url);
  t.equal(result.code, 0, result.stderr);
  const reports = server.reports as Report[];
  t.equal(reports.length, 6);
  t.same(
    reports.map((r) => r.inTest).sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5],
    'iterationInTest: each number once',
  );
  t.ok(
    reports.every((r) => r.name === 'browse'),
    'the scenario name',
  );
  t.ok(
    reports.every((r) => r.inScenario === r.iter),
    'iterationInScenario is __ITER',
  );
  for (const vu of new Set(reports.map((r) => r.vu))) {
    const own = reports.filter((r) => r.vu === vu).map((r) => r.inScenario);
    t.same(own, [...own.keys()], `vu ${vu} counts its own iterations from 0`);
  }
});

t.test('exec.test.abort() stops the run as failed, with its reason', async (t) => {
  const server = await phaseServer(t);
  const result = await run(ABORTING, server.url, '-n', '50', '-c', '1');
  t.equal(result.code, 1, 'exit 1');
  t.match(
    result.stderr,
    'the run stopped: the scenario aborted the test (exec.test.abort): enough seen',
  );
  t.notMatch(result.stderr, 'script_error', 'the abort is no script error');
  t.same(
    (server.reports as { inTest: number }[]).map((r) => r.inTest),
    [0, 1, 2, 3],
    'no iteration after the one that aborted',
  );
});
