/**
 * Runs of an installed barrage (test/install/global-install.test.ts: the image's install step
 * replayed) as a user runs it, against a loopback target that counts what reaches it: a YAML
 * configuration, and a TypeScript scenario with its type check on (TypeScript and isolated-vm
 * load from the installed package). Each count is the server's and barrage's alike.
 */
import type { Test } from 'tap';
import { execFile } from 'node:child_process';
import { countingTarget } from './counting-target.js';

/** What an installed barrage printed, and its exit code. */
interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `barrage <args>` in `cwd`, asynchronously: the target answers from this process. */
function barrageRun(barrage: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<Ran>((resolve) => {
    execFile(barrage, args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

const YAML = (target: string): string => `target: ${target}
requests: 12
concurrency: 2
endpoints:
  - name: items
    url: /yaml
`;

const SCENARIO = `import { check, http } from 'barrage';

export default async function (): Promise<void> {
  const res = await http.get('/ts');
  check(res, { 'status is 200': (r) => r.status === 200 });
}
`;

/** Runs the YAML configuration, then the scenario, with the installed `barrage`. */
export async function runInstalled(
  t: Test,
  barrage: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const server = await countingTarget(t);
  const dir = t.testdir({ 'load.yaml': YAML(server.url), 'load.ts': SCENARIO });
  const yaml = await barrageRun(barrage, ['run', 'load.yaml', '--json-output'], dir, env);
  t.equal(yaml.code, 0, 'barrage run load.yaml', { stderr: yaml.stderr });
  const fromYaml = JSON.parse(yaml.stdout) as { total: number; successes: number };
  t.equal(server.byPath.get('/yaml'), 12, 'the plan, at the server');
  t.equal(fromYaml.total, 12, "and in barrage's result");
  t.equal(fromYaml.successes, 12);
  const args = ['run', '--scenario', 'load.ts', '--target', server.url, '-n', '5', '-c', '1'];
  const ts = await barrageRun(barrage, [...args, '--json-output'], dir, env);
  t.equal(ts.code, 0, 'barrage run --scenario load.ts (type-checked)', { stderr: ts.stderr });
  const fromTs = JSON.parse(ts.stdout) as {
    total: number;
    checks?: { passes: number; fails: number };
  };
  t.equal(server.byPath.get('/ts'), 5, 'each iteration reached the server');
  t.equal(fromTs.total, 5);
  t.same(fromTs.checks && { passes: fromTs.checks.passes, fails: fromTs.checks.fails }, {
    passes: 5,
    fails: 0,
  });
}
