/**
 * Runs barrage's main() in this process with captured streams (like clipanion's own tests):
 * fast, and it sees exactly what a user would on stdout and stderr.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Test } from 'tap';
import type { BarrageContext, UserSignal } from '../../cli/context.js';
import { main } from '../../cli/main.js';
import { skippingTypecheck } from './run-cli.js';

/** What a run printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** setRawMode calls, in order (a terminal run only). */
  readonly rawMode: readonly boolean[];
  /** Exit hooks still registered when main() returned (a cleanup left for process exit). */
  readonly exitHooksLeft: number;
}

/** A pretend terminal: stdout is still captured, but the command sees a terminal of this size. */
export interface FakeTerminal {
  /** Types keys on stdin. */
  type(keys: string): void;
  /** Resizes the terminal and notifies the command. */
  resize(columns: number, rows: number): void;
  /** Everything written to the terminal so far. */
  written(): string;
}

/** Options for an in-process run. */
export interface InProcessOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  /** Receives a function that sends a signal to the running command. */
  readonly onStart?: (send: (signal: UserSignal) => void) => void;
  /** Makes stdout a terminal of this size (stdin then has raw mode). */
  readonly tty?: { readonly columns: number; readonly rows: number };
  /** Receives the pretend terminal's controls (with `tty`). */
  readonly onTerminal?: (terminal: FakeTerminal) => void;
  /** Type-check a TypeScript scenario (off in tests, as in run-cli.ts's runCli). */
  readonly typecheck?: boolean;
}

/** Runs `barrage <argv>` in process. */
export async function runInProcess(
  argv: readonly string[],
  options: InProcessOptions = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const handlers = new Set<(signal: UserSignal) => void>();
  const resizeHandlers = new Set<() => void>();
  const exitHandlers = new Set<() => void>();
  const rawMode: boolean[] = [];
  let size = options.tty ?? { columns: 80, rows: 24 };
  let exitCode: number | undefined;
  const stdin = new PassThrough();
  const context: BarrageContext = {
    stdin,
    stdout,
    stderr,
    // The coverage folder when `npm run coverage` measures: a scenario's child process gets it
    // from here, as a spawned barrage's does (run-cli.ts).
    env: { ...coverageEnv(), ...options.env },
    colorDepth: 1,
    cwd: options.cwd ?? process.cwd(),
    isTTY: options.tty !== undefined,
    execPath: process.execPath,
    onSignal: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    exitNow: (code) => {
      exitCode = code;
    },
    terminalSize: () => size,
    setRawMode: options.tty === undefined ? undefined : (on) => rawMode.push(on),
    onResize: (handler) => {
      resizeHandlers.add(handler);
      return () => resizeHandlers.delete(handler);
    },
    onExit: (handler) => {
      exitHandlers.add(handler);
      return () => exitHandlers.delete(handler);
    },
  };
  options.onStart?.((signal) => {
    for (const handler of [...handlers]) handler(signal);
  });
  options.onTerminal?.({
    type: (keys) => stdin.write(keys),
    resize: (columns, rows) => {
      size = { columns, rows };
      for (const handler of [...resizeHandlers]) handler();
    },
    written: () => out,
  });
  const code = await main(skippingTypecheck(argv, options.typecheck), context);
  await new Promise((resolve) => setImmediate(resolve));
  return {
    code: exitCode ?? code,
    stdout: out,
    stderr: err,
    rawMode,
    exitHooksLeft: exitHandlers.size,
  };
}

/**
 * The in-process twin of run-cli.ts's runJsonConfig: writes `config` as a YAML file in a test
 * folder and runs it with --json-output (and `flags`); the JSON result, how the run ended, and the
 * folder it ran in. A stack trace on stderr fails the test.
 */
export async function runJsonConfigInProcess<Json>(
  t: Test,
  config: string,
  flags: readonly string[] = [],
): Promise<{ json: Json; result: CliResult; dir: string }> {
  const dir = t.testdir({ 'run.yaml': config });
  const result = await runInProcess(['run', join(dir, 'run.yaml'), '--json-output', ...flags], {
    cwd: dir,
  });
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return { json: JSON.parse(result.stdout) as Json, result, dir };
}

/** NODE_V8_COVERAGE when c8 set it (it sets it for every Node it starts), else nothing. */
function coverageEnv(): Record<string, string> {
  const { NODE_V8_COVERAGE } = process.env;
  return NODE_V8_COVERAGE === undefined ? {} : { NODE_V8_COVERAGE };
}
