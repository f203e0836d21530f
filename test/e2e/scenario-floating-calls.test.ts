// A scenario's requests that its iteration never awaits are still requests on the wire: the host
// awaits them before the iteration ends, and records them (docs/scenarios.md, "Calls not
// awaited"), so barrage's count equals what the target counted. In process, against a loopback
// target that counts what reaches it.
import t, { type Test } from 'tap';
import { countingTarget, type CountingTarget } from '../helpers/counting-target.js';
import { json, run, type JsonResult } from '../helpers/scripted-run.js';
import type { CliResult } from '../helpers/in-process-cli.js';

/** Runs `source` as load.ts against a counting target with `flags`. */
async function floating(
  t: Test,
  source: string,
  flags: readonly string[],
): Promise<{ result: CliResult; r: JsonResult; server: CountingTarget }> {
  const server = await countingTarget(t);
  const dir = t.testdir({ 'load.ts': source });
  const result = await run(['--scenario', `${dir}/load.ts`, '--target', server.url, ...flags]);
  return { result, r: json(result), server };
}

const scenario = (body: string): string =>
  `import { http } from 'barrage';\nexport default async function ({ iteration }: { iteration: number }): Promise<void> {\n${body}\n}\n`;

t.test('N iterations each firing requests never awaited: the server count is ours', async (t) => {
  const body = `  void http.get('/floating');
  void http.get('/first').then(() => http.get('/then'));
  if (iteration % 2 === 0) throw new Error('after the calls');`;
  const { result, r, server } = await floating(t, scenario(body), ['-n', '20', '-c', '1']);
  t.equal(result.code, 0, result.stderr);
  t.same(
    Object.fromEntries(server.byPath),
    { '/floating': 20, '/first': 20, '/then': 20 },
    "each iteration sent its requests, a continuation's included",
  );
  t.equal(r.total, server.total(), 'every request the server saw is counted');
  t.same(r.status_codes, { '200': 60 });
  t.same(r.iteration_errors, { script_error: 10 }, 'an iteration that threw after its calls');
  t.match(result.stderr, 'Error: after the calls');
});

t.test('a duration-bound run: requests in flight at its end are counted', async (t) => {
  const body = "  void http.get('/a');\n  void http.batch([{ method: 'GET', url: '/b' }]);";
  const { result, r, server } = await floating(t, scenario(body), ['-d', '1s', '-c', '2']);
  t.equal(result.code, 0, result.stderr);
  t.ok(server.total() > 0);
  t.equal(r.total, server.total(), 'barrage counts what the server saw, no fewer');
  t.equal(server.byPath.get('/a'), server.byPath.get('/b'), 'each iteration sent both');
  t.same(r.iteration_errors, {}, 'no call refused for calls left waiting');
});
