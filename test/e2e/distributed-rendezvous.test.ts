// The rendezvous as an Indexed Job runs it (docs/distributed.md, Kubernetes): n processes of the
// same command, each with JOB_COMPLETION_INDEX, `--segment auto/n` and `--coordinator` naming
// the first segment (the Service's name mapped to 127.0.0.1 here), against a counting server.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startTargetServer } from '../../cli/serve/target-server.js';
import type { RawResult } from '../../runtime/raw-result.js';
import { eventually } from '../helpers/eventually.js';
import { parseAllDocuments } from 'yaml';
import { runInProcess } from '../helpers/in-process-cli.js';
import { freePort } from '../helpers/local-ports.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

interface Json {
  total: number;
  dropped: number;
  warnings?: string[];
}

/** Three pods' file systems, each with the configuration. */
function podDirs(t: Test, config: string): string[] {
  const root = t.testdir(
    Object.fromEntries([0, 1, 2].map((k) => [`pod${k}`, { 'load.yaml': config }])),
  );
  return [0, 1, 2].map((k) => join(root, `pod${k}`));
}

/**
 * The command `barrage k8s` gives every pod of the Job, with the coordinator's name (the first
 * pod's, through the headless Service) mapped to 127.0.0.1 and the mount to the pod's folder.
 */
async function jobCommand(dir: string, port: number): Promise<string[]> {
  const printed = await runInProcess(
    ['k8s', 'load.yaml', '--segments', '3', '--port', String(port)],
    {
      cwd: dir,
    },
  );
  const job = parseAllDocuments(printed.stdout)
    .map((d) => d.toJS() as { kind: string; spec?: JobSpec })
    .find((o) => o.kind === 'Job');
  const command = job!.spec!.template.spec.containers[0]!.command;
  return command
    .slice(1)
    .map((arg) =>
      arg.replace('/barrage/', '').replace(`barrage-0.barrage:${port}`, `127.0.0.1:${port}`),
    );
}

interface JobSpec {
  template: { spec: { containers: { command: string[] }[] } };
}

/** Pod k's command: its own folder (a pod's file system), the Job's environment. */
function pod(
  dirs: readonly string[],
  index: number,
  argv: readonly string[],
  onSpawn?: (child: ChildProcess, stderr: () => string) => void,
): Promise<PodResult> {
  const dir = dirs[index]!;
  return runCli([...argv, '--json-output', '--raw', 'r.json'], {
    cwd: dir,
    env: { JOB_COMPLETION_INDEX: String(index) },
    killAfterMs: 30_000,
    onSpawn: (child) => {
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      onSpawn?.(child, () => stderr);
    },
  }).then((result) => ({ ...result, dir }));
}

/** What a pod printed, and its folder. */
type PodResult = SpawnResult & { readonly dir: string };

const rawOf = (result: PodResult): RawResult =>
  JSON.parse(readFileSync(join(result.dir, 'r.json'), 'utf8')) as RawResult;

t.test('released together, a late pod waited for, one exact result', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const port = await freePort();
  const config = `target: ${server.url}/json\nrequests: 300\nconcurrency: 6\nthresholds: ["http_requests:count == 300"]\n`;
  let coordinatorStderr = (): string => '';
  const dirs = podDirs(t, config);
  const argv = await jobCommand(dirs[0]!, port);
  t.same(argv.slice(0, 6), [
    'run',
    'load.yaml',
    '--segment',
    'auto/3',
    '--coordinator',
    `127.0.0.1:${port}`,
  ]);
  const first = pod(dirs, 0, argv, (_c, stderr) => (coordinatorStderr = stderr));
  const second = pod(dirs, 1, argv);
  await eventually(() => coordinatorStderr().includes('segment 2/3 is ready (2 of 3)'));
  t.equal(server.stats().total, 0, 'nothing sent while a segment is not ready');
  const third = pod(dirs, 2, argv);
  const [one, two, three] = await Promise.all([first, second, third]);
  t.equal(one.code, 0, one.stderr);
  t.same([two.code, three.code], [0, 0], "the others leave the verdict to the first's merge");
  const merged = JSON.parse(one.stdout) as Json;
  t.equal(merged.total, 300, 'the whole run, exactly');
  t.equal(server.stats().total, 300, "the server's count");
  t.same(
    [two, three].map((r) => (JSON.parse(r.stdout) as Json).total),
    [100, 100],
  );
  const raws = [one, two, three].map(rawOf);
  t.equal(new Set(raws.map((r) => r.startAt)).size, 1, 'one start time for all');
  t.same(
    raws.map((r) => r.lateStartMs),
    [undefined, undefined, undefined],
    'none began late',
  );
  for (const raw of raws.slice(1))
    t.ok(Math.abs(raw.snapshot.startedAt - raw.startAt!) < 1000, 'dispatch began at the release');
  t.same(raws[0]!.segment, { index: 1, count: 1 }, "the first writes the whole run's raw result");
  t.match(one.stderr, /all 3 segments ready: dispatch begins at /);
});

t.test('a killed segment gives a partial result naming it, exit 1', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const port = await freePort();
  const config = `target: ${server.url}/json\nduration: 1s\nrate: 60\nconcurrency: 3\n`;
  const dirs = podDirs(t, config);
  const argv = await jobCommand(dirs[0]!, port);
  const runs = [0, 1, 2].map((k) =>
    pod(dirs, k, argv, (child) => {
      if (k === 2)
        void eventually(() => server.stats().total > 0).then(() => child.kill('SIGKILL'));
    }),
  );
  const [one, two, three] = (await Promise.all(runs)) as [PodResult, PodResult, PodResult];
  t.equal(three.signal, 'SIGKILL');
  t.equal(one.code, 1, 'a partial result fails the run');
  t.equal(two.code, 0);
  const json = JSON.parse(one.stdout) as Json;
  t.match(json.warnings, [
    /^partial result: the figures lack segment 3\/3 \(lost at \d{4}-.*Z: its connection closed before it sent its result\)$/,
  ]);
  t.equal(json.total + json.dropped, 40, "the two other segments' 2 × 20 permits, exactly");
  t.match(one.stderr, /segment 3\/3 lost at .*: its connection closed/);
});
