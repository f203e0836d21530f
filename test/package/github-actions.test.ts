/**
 * The GitHub Actions example (docs/ci/github-actions.yml) run as the runner would run its `run:`
 * steps: each in bash with `-eo pipefail`, in a workspace laid out as the file says (its
 * load-test/load.yaml from docs/ci/load.yaml), with the job's environment. The install step is
 * checked, not run (it fetches from the registry): a `barrage` on PATH runs the built binary
 * instead; the service step is replaced by a local server the test starts, whose URL is
 * TARGET_URL. The gate is the step's exit code, and the report the upload step keeps is there
 * whether the gate passed or failed.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { countingTarget } from '../helpers/counting-target.js';
import { BIN } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Step {
  readonly id?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}

const workflow = parse(readFileSync(join(ROOT, 'docs', 'ci', 'github-actions.yml'), 'utf8')) as {
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
};
const job = Object.values(workflow.jobs)[0]!;
const step = (id: string): Step => job.steps.find((s) => s.id === id)!;

/** A workspace with the example's files, and a bin folder whose `barrage` is the built one. */
function workspace(t: Test): { dir: string; bin: string; summary: string } {
  const dir = t.testdir({ bin: {}, 'load-test': {} });
  cpSync(join(ROOT, 'docs', 'ci', 'load.yaml'), join(dir, 'load-test', 'load.yaml'));
  const bin = join(dir, 'bin');
  writeFileSync(join(bin, 'barrage'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'barrage'), 0o755);
  const summary = join(dir, 'step-summary.md');
  writeFileSync(summary, '');
  return { dir, bin, summary };
}

/**
 * Runs one step's `run:` as the runner does; its exit code and output. Asynchronously: the
 * service it loads is served by this process.
 */
function runStep(
  s: Step,
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const script = join(dir, `.step-${s.id}.sh`);
  writeFileSync(script, s.run!);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: dir,
      env: { ...process.env, ...job.env, ...s.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    });
  });
}

t.test(
  'the workflow installs barrage-cli, runs a load step and keeps the report always',
  async (t) => {
    t.equal(step('install').run?.trim(), 'npm install -g barrage-cli', 'the package of the README');
    t.match(step('service').run, /barrage serve --port 8080/);
    t.match(job.env?.TARGET_URL, /^http:\/\/127\.0\.0\.1:8080$/);
    const report = step('report');
    t.match(report.uses, /^actions\/upload-artifact@/);
    t.match(report.if, /always\(\)/, 'uploaded when the gate failed too');
    t.equal(report.with?.path, 'load-test/out/');
    t.match(step('load').run, /--html load-test\/out\/report\.html/);
  },
);

t.test(
  'passing thresholds: the step succeeds, the report and the summary are written',
  async (t) => {
    const target = await countingTarget(t);
    const { dir, bin, summary } = workspace(t);
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      TARGET_URL: target.url,
      GITHUB_STEP_SUMMARY: summary,
    };
    const load = await runStep(step('load'), dir, env);
    t.equal(load.code, 0, 'the gate passed', { output: load.output });
    t.equal(target.total(), 40, "load.yaml's 40 requests reached the service");
    t.match(readFileSync(join(dir, 'load-test', 'out', 'report.html'), 'utf8'), /<html/i);
    t.ok(existsSync(join(dir, 'load-test', 'out', 'junit.xml')));
    const resultFile = join(dir, 'load-test', 'out', 'result.json');
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { total: number };
    t.equal(result.total, 40);
    t.match(readFileSync(summary, 'utf8'), /http_req_failed/, 'the step summary was appended');
  },
);

t.test('a failed threshold fails the step, and the report is still there to upload', async (t) => {
  const target = await countingTarget(t, 500);
  const { dir, bin, summary } = workspace(t);
  mkdirSync(join(dir, 'load-test', 'out'), { recursive: true });
  const env = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    TARGET_URL: target.url,
    GITHUB_STEP_SUMMARY: summary,
  };
  const load = await runStep(step('load'), dir, env);
  t.equal(load.code, 1, 'the gate failed the step');
  t.match(load.output, /http_req_failed/);
  t.ok(existsSync(join(dir, 'load-test', 'out', 'report.html')), 'the report to upload');
});
