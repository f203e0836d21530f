/**
 * Runs barrage's main() in this process with captured streams (like clipanion's own tests):
 * fast, and it sees exactly what a user would on stdout and stderr.
 */
import { PassThrough } from 'node:stream';
import type { BarrageContext, UserSignal } from '../../cli/context.js';
import { main } from '../../cli/main.js';

/** What a run printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options for an in-process run. */
export interface InProcessOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  /** Receives a function that sends a signal to the running command. */
  readonly onStart?: (send: (signal: UserSignal) => void) => void;
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
  let exitCode: number | undefined;
  const context: BarrageContext = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: options.env ?? {},
    colorDepth: 1,
    cwd: options.cwd ?? process.cwd(),
    isTTY: false,
    execPath: process.execPath,
    onSignal: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    exitNow: (code) => {
      exitCode = code;
    },
    terminalSize: () => ({ columns: 80, rows: 24 }),
    setRawMode: undefined,
  };
  options.onStart?.((signal) => {
    for (const handler of [...handlers]) handler(signal);
  });
  const code = await main(argv, context);
  await new Promise((resolve) => setImmediate(resolve));
  return { code: exitCode ?? code, stdout: out, stderr: err };
}
