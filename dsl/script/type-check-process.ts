/**
 * Starts a scenario's type check (type-check.ts) in a child process (type-check-entry.ts) and
 * reads its problems. The child runs while the caller reads the scenario's options in another
 * (scenario-options.ts): the check is the slower of the two, so it costs the load little more
 * than its own time. It runs no code of the scenario's.
 */
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigIssue } from '../issues.js';
import type { TypeCheckInput } from './type-check.js';

/** The built entry, next to this one in the flat dist/ (tests run sources: `npm test` builds). */
const ENTRY = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../dist/type-check-entry.js', import.meta.url)
    : new URL('./type-check-entry.js', import.meta.url),
);

/** A backstop only: checking a scenario takes well under a second. */
const CHECK_KILL_MS = 60_000;

/** The type errors and floating promises of the scenario (empty: it checks); `execPath` runs it. */
export function startTypeCheck(input: TypeCheckInput, execPath: string): Promise<ConfigIssue[]> {
  // The paths travel as an argument, not on stdin: the caller may block its event loop (the
  // options reader is spawnSync) before a write to the child's stdin would have been flushed.
  const child = spawn(execPath, [ENTRY, JSON.stringify(input)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: CHECK_KILL_MS,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => {
    const failed = (actual: string): void =>
      resolve([
        {
          code: 'type_error',
          source: { kind: 'file', file: relative(input.cwd, input.entry) },
          path: [],
          expected: 'a type check that completes (--no-typecheck skips it)',
          actual,
        },
      ]);
    child.on('error', (error) => failed(error.message));
    child.on('close', (code, signal) => {
      try {
        resolve(JSON.parse(stdout) as ConfigIssue[]);
      } catch {
        const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
        failed(`${how} ${stderr.trim().split('\n')[0] ?? ''}`.trim());
      }
    });
  });
}
