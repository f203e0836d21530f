/**
 * Spawns the built binary (dist/bin.js, built by `pretest`) as a user runs it, like
 * corepack's _runCli: real argv, environment, stdio, signals and exit codes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

/** Path of the built CLI entry. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** What the process printed and how it ended. */
export interface SpawnResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options for a spawned run. */
export interface SpawnOptions {
  readonly cwd?: string;
  /** Added to a minimal environment (PATH, HOME); the parent's BARRAGE_* are not inherited. */
  readonly env?: Record<string, string>;
  /** Called once the child is running (e.g. to send signals later). */
  readonly onSpawn?: (child: ChildProcess) => void;
  /** Kill the child after this long (a test safety net, not an assertion). */
  readonly killAfterMs?: number;
  /**
   * Limits the size of files the CLI writes to this many 512-byte blocks (`ulimit -f` of sh, with
   * SIGXFSZ ignored), so a larger write fails with EFBIG as on a full disk, without root or mounts.
   */
  readonly fileSizeLimitBlocks?: number;
  /**
   * Type-check a TypeScript scenario as the CLI does by default. Off in tests (`--no-typecheck` is
   * added to `run` and `validate`): the check starts a TypeScript compiler per run, and
   * test/e2e/scenario-typecheck.test.ts, the tests of the check itself, turn it on.
   */
  readonly typecheck?: boolean;
}

/** The commands that type-check a scenario, and so take `--no-typecheck`. */
const CHECKING_COMMANDS = new Set(['run', 'validate']);

/**
 * `argv` with `--no-typecheck` after a `run` or `validate` command name (or first, for the default
 * command running a scenario: `barrage --scenario f.ts`), unless `typecheck` asks for the check or
 * argv already says either way.
 */
export function skippingTypecheck(argv: readonly string[], typecheck = false): string[] {
  const said = argv.includes('--typecheck') || argv.includes('--no-typecheck');
  if (typecheck || said) return [...argv];
  if (CHECKING_COMMANDS.has(argv[0] ?? '')) return [argv[0]!, '--no-typecheck', ...argv.slice(1)];
  const scripted = argv.includes('--scenario') || argv.some((arg) => arg.endsWith('.ts'));
  return (argv[0] ?? '').startsWith('-') && scripted ? ['--no-typecheck', ...argv] : [...argv];
}

/**
 * What a spawned barrage gets of this process's environment: PATH and HOME, and the coverage
 * folder when `npm run coverage` measures (c8 sets NODE_V8_COVERAGE for every Node it starts).
 */
function baseEnv(): Record<string, string> {
  const { PATH = '', HOME = '', NODE_V8_COVERAGE } = process.env;
  return { PATH, HOME, ...(NODE_V8_COVERAGE === undefined ? {} : { NODE_V8_COVERAGE }) };
}

/** Runs the binary directly (its shebang starts node) and collects its output. */
export function runCli(argv: readonly string[], options: SpawnOptions = {}): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const limit = options.fileSizeLimitBlocks;
    const args = skippingTypecheck(argv, options.typecheck);
    const [command, commandArgs] =
      limit === undefined
        ? [BIN, args]
        : ['sh', ['-c', `trap '' XFSZ; ulimit -f ${limit}; exec "$0" "$@"`, BIN, ...args]];
    const child = spawn(command, commandArgs, {
      cwd: options.cwd,
      env: { ...baseEnv(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/**
 * Writes `config` as a YAML file in a test folder and runs it with the built CLI and
 * --json-output (and `flags`); the JSON result, how the run ended, and the folder it ran in (files
 * it wrote there, relative to it). A stack trace on stderr
 * fails the test.
 */
export async function runJsonConfig<Json>(
  t: Test,
  config: string,
  flags: readonly string[] = [],
): Promise<{ json: Json; result: SpawnResult; dir: string }> {
  const dir = t.testdir({ 'run.yaml': config });
  const result = await runCli(['run', join(dir, 'run.yaml'), '--json-output', ...flags], {
    cwd: dir,
    killAfterMs: 60_000,
  });
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return { json: JSON.parse(result.stdout) as Json, result, dir };
}
