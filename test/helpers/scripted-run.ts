// Runs of the fixture scenarios in test/fixtures/scenarios/, in process, against barrage serve's
// target: what test/e2e/scenario.test.ts and scenario-isolate.test.ts share.
import type { Test } from 'tap';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';
import { runInProcess, type CliResult } from './in-process-cli.js';

/** The fixture scenarios' folder. */
export const FIXTURES = fileURLToPath(new URL('../fixtures/scenarios/', import.meta.url));
/** The shipped examples' folder. */
export const EXAMPLES = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** The JSON result's fields these tests read. */
export interface JsonResult {
  total: number;
  iterations_failed: number;
  iteration_errors: Record<string, number>;
  successes: number;
  failures: number;
  status_codes: Record<string, number>;
  errors: Record<string, number>;
  endpoints: { name: string; requests: number; failures: number }[];
  checks?: {
    passes: number;
    fails: number;
    by_name: Record<string, { passes: number; fails: number }>;
  };
  thresholds?: { passed: number; failed: number };
}

/** The JSON result a run printed. */
export const json = (r: { stdout: string }): JsonResult => JSON.parse(r.stdout) as JsonResult;

/** checks.by_name when every named check passed `times` times and never failed. */
export const passedAll = (times: number, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { passes: times, fails: 0 }]));

/** barrage serve's target, closed in teardown. */
export async function target(t: Test): Promise<TargetServer> {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  return server;
}

/** `barrage run --json-output` in process, with a short timeout so that limits bite fast. */
export function run(args: readonly string[]): Promise<CliResult> {
  return runInProcess(['run', '--json-output', '--no-dashboard', ...args]);
}

/** A fixture scenario against `server`, `requests` iterations on `concurrency` virtual users. */
export function runFixture(
  file: string,
  server: Pick<TargetServer, 'url'>,
  requests: number,
  concurrency: number,
  ...extra: string[]
): Promise<CliResult> {
  return run([
    '--scenario',
    join(FIXTURES, file),
    '--target',
    server.url,
    '-n',
    String(requests),
    '-c',
    String(concurrency),
    ...extra,
  ]);
}
