/**
 * `--only name,…` and `--smoke` (docs/configuration.md, Scenarios; docs/from-k6.md): the built
 * binary runs only the named scenarios, and a smoke run does each selected scenario's iteration
 * once with one virtual user. Counted at a local server: every count here is the plan's own.
 */
import t, { type Test } from 'tap';
import { countingTarget, type CountingTarget } from '../helpers/counting-target.js';
import { runInProcess } from '../helpers/in-process-cli.js';

const CONFIG = `endpoints:
  - { name: home, url: /home }
  - { name: pay, url: /pay, method: POST }
flows:
  - { name: browse, steps: [home] }
  - { name: checkout, steps: [home, pay] }
scenarios:
  browse:
    executor: shared-iterations
    vus: 2
    iterations: 4
    flows: [browse]
  checkout:
    executor: per-vu-iterations
    vus: 2
    iterations: 3
    flows: [checkout]
    start_time: 30s
`;

async function run(t: Test, target: CountingTarget, flags: readonly string[]) {
  const dir = t.testdir({ 'load.yaml': CONFIG });
  const result = await runInProcess(
    ['run', 'load.yaml', '--target', target.url, '--quiet', ...flags],
    {
      cwd: dir,
    },
  );
  t.equal(result.code, 0, flags.join(' '), { stderr: result.stderr });
  return result;
}

t.test('--only runs the named scenario as written', async (t) => {
  const target = await countingTarget(t);
  await run(t, target, ['--only', 'browse']);
  t.equal(target.byPath.get('/home'), 4, "browse's 4 shared iterations");
  t.equal(target.byPath.get('/pay'), undefined, 'checkout did not run');
});

t.test("--smoke: each scenario's iteration once, one VU, from the start", async (t) => {
  const target = await countingTarget(t);
  await run(t, target, ['--smoke']);
  t.equal(target.byPath.get('/home'), 2, 'browse once, and checkout once (home → pay)');
  t.equal(target.byPath.get('/pay'), 1);
});

t.test('--only with --smoke; validate shows the selection', async (t) => {
  const target = await countingTarget(t);
  await run(t, target, ['--only', 'checkout', '--smoke']);
  t.same(target.urls, ['/home', '/pay'], "checkout's flow once, start_time not waited for");
  const dir = t.testdir({ 'load.yaml': CONFIG });
  const shown = await runInProcess(
    ['validate', 'load.yaml', '--target', target.url, '--only', 'checkout', '--smoke'],
    { cwd: dir },
  );
  t.equal(shown.code, 0);
  t.match(shown.stdout, /checkout\s+per-vu-iterations, as a smoke run, from 0s: 1 VU/);
  t.notMatch(shown.stdout, /^\s+browse\s+shared-iterations/m);
});

t.test(
  'a top-level run smoke-tested sends one request, whatever its rate and duration',
  async (t) => {
    const target = await countingTarget(t);
    const dir = t.testdir({
      'load.yaml': `target: ${target.url}\nrate: 50\nduration: 1m\nendpoints: [{ url: /one }]\n`,
    });
    const result = await runInProcess(['run', 'load.yaml', '--smoke', '--quiet'], { cwd: dir });
    t.equal(result.code, 0, { stderr: result.stderr });
    t.same(target.urls, ['/one']);
  },
);

t.test('a name that is not a scenario is refused before any traffic', async (t) => {
  const target = await countingTarget(t);
  const dir = t.testdir({ 'load.yaml': CONFIG });
  const result = await runInProcess(
    ['run', 'load.yaml', '--target', target.url, '--only', 'browse,chekout'],
    { cwd: dir },
  );
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /--only: scenarios: expected names of the run's scenarios: browse, checkout, got "chekout" \(did you mean checkout\?\)/,
  );
  t.equal(target.total(), 0, 'nothing was sent');
});
