/**
 * What a k6 user types first, answered by the built binary (docs/from-k6.md, "First commands"):
 * `barrage run script.ts` runs the script as a scenario; `-e KEY=VALUE` and `-o json=FILE` are
 * barrage's flags too; `--vus`, `-u`, `-i`, `--iterations` are answered with barrage's flag;
 * `barrage help [command]`, `barrage version`, a misspelt command's did-you-mean; k6's option keys
 * in a scenario (`vus`, `iterations`, `stages`) and k6's output names pointed to barrage's.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countingTarget } from '../helpers/counting-target.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/run-cli.js';

const SCRIPT = `import { env, http } from 'barrage';
export const options = { concurrency: 1, requests: 3 };
export default async function () {
  await http.get('/k6', { query: { region: env.REGION ?? 'none' } });
}
`;

for (const name of ['script.ts', 'script.js']) {
  t.test(`barrage run ${name} runs it as a scenario, with -e and -o`, async (t) => {
    const target = await countingTarget(t);
    const dir = t.testdir({ [name]: SCRIPT });
    const run = await runInProcess(
      ['run', name, '--target', target.url, '--quiet', '-e', 'REGION=eu', '-o', 'json=live.ndjson'],
      { cwd: dir },
    );
    t.equal(run.code, 0, 'ran', { stderr: run.stderr });
    t.equal(target.byPath.get('/k6'), 3, 'the script sent its 3 iterations');
    t.ok(
      target.urls.every((url) => url === '/k6?region=eu'),
      '-e REGION=eu reached env',
    );
    t.ok(existsSync(join(dir, 'live.ndjson')), '-o json=FILE wrote the stream');
    t.match(readFileSync(join(dir, 'live.ndjson'), 'utf8'), /"metric":"http_reqs"|"type":"Metric"/);
  });
}

t.test("k6's flags are answered with barrage's", async (t) => {
  const cases: [string[], RegExp][] = [
    [
      ['run', '--vus', '10', 'x.yaml'],
      /unknown flag --vus .*: k6's --vus is barrage's -c\/--concurrency/,
    ],
    [['run', '-u', '10'], /k6's -u \(--vus\) is barrage's -c\/--concurrency/],
    [['run', '--iterations', '5'], /k6's --iterations is barrage's -n\/--requests/],
    [['run', '-i', '5'], /k6's -i \(--iterations\) is barrage's -n\/--requests/],
    [['validate', '--summary-export', 'x.json'], /barrage's --json FILE/],
  ];
  for (const [argv, message] of cases) {
    const result = await runInProcess(argv);
    t.equal(result.code, 1, argv.join(' '));
    t.match(result.stderr, message);
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test("k6's output names are pointed to barrage's forms", async (t) => {
  const result = await runInProcess([
    'validate',
    '--target',
    'http://127.0.0.1:9',
    '-o',
    'experimental-prometheus-rw',
  ]);
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /--out: outputs\[0\]: .*k6's experimental-prometheus-rw is prometheus-rw=URL/,
  );
});

t.test('help, version and a misspelt command', async (t) => {
  const help = await runInProcess(['help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /barrage validate/, 'barrage help lists the commands');
  const helpRun = await runInProcess(['help', 'validate']);
  t.equal(helpRun.code, 0);
  t.match(helpRun.stdout, /Check a configuration without sending traffic/);
  // Spawned, as a user types it; the rest of the file runs barrage in process.
  const version = await runCli(['version']);
  t.equal(version.code, 0);
  t.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const misspelt = await runInProcess(['valdiate', 'load.yaml']);
  t.equal(misspelt.code, 1);
  t.equal(
    misspelt.stderr,
    'barrage: unknown command "valdiate"; did you mean barrage validate? (barrage help lists the commands)\n',
  );
  const helpNone = await runInProcess(['help', 'rnu']);
  t.equal(helpNone.code, 1);
  t.match(helpNone.stderr, /no command "rnu" to help with; did you mean run\?/);
});

t.test('a file named like a command is still a configuration', async (t) => {
  const target = await countingTarget(t);
  const dir = t.testdir({ valdiate: `target: ${target.url}\nrequests: 2\nconcurrency: 1\n` });
  const run = await runInProcess(['valdiate', '--quiet'], { cwd: dir });
  t.equal(run.code, 0, { stderr: run.stderr });
  t.equal(target.total(), 2);
});

t.test("k6's option keys in a scenario are pointed to barrage's", async (t) => {
  const dir = t.testdir({
    'k6.ts': `import { http } from 'barrage';
export const options = { vus: 10, iterations: 20, stages: [{ duration: '10s', target: 5 }], maxRedirects: 2 };
export default async function () { await http.get('/'); }
`,
  });
  const result = await runInProcess(['validate', 'k6.ts', '--target', 'http://127.0.0.1:9'], {
    cwd: dir,
  });
  t.equal(result.code, 1);
  t.match(result.stderr, /k6\.ts \(options\): vus: .*k6's vus is barrage's concurrency/);
  t.match(result.stderr, /iterations: .*k6's iterations is barrage's requests/);
  t.match(result.stderr, /stages: .*ramping-vus scenario/);
  t.match(result.stderr, /maxRedirects: .*write max_redirects/);
  t.notMatch(result.stderr, /did you mean tags/);
});
