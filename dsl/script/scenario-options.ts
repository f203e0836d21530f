/**
 * `export const options` of a scenario, read at load time by a short-lived child process
 * (options-entry.ts): the scenario's code runs in an isolate there, never in barrage's own
 * process, which therefore starts without --no-node-snapshot and loads no native module. The
 * caller validates the options as a configuration layer (dsl/layers.ts) like any other.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ConfigIssue } from '../issues.js';
import type { ScenarioEnv, ScriptBundle } from '../../model/plan/plan.js';
import type { OpenedData } from '../../model/plan/shared-data.js';
import { err, ok, type Result } from '../result.js';
import type { OptionsReply, OptionsRequest, ScriptMetric } from './options-entry.js';

/**
 * The reader's entry: the built file, next to this one in the flat dist/ (tests run sources through
 * tsx; `npm test` builds first).
 */
const ENTRY = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../dist/options-entry.js', import.meta.url)
    : new URL('./options-entry.js', import.meta.url),
);

/** A backstop only: the isolate's own timeout (1 s) ends a scenario's runaway top level first. */
const READER_KILL_MS = 30_000;

/** What a scenario's top level gives the configuration. */
export interface ScenarioOptions {
  /** `export const options`, undefined when it exports none. */
  readonly options: Record<string, unknown> | undefined;
  /** The metrics it declares (`new Trend('name')`…), by name, as `metrics:` declares them. */
  readonly metrics: Readonly<Record<string, ScriptMetric>>;
  /** The data files it opens (data.json(), data.csv()). */
  readonly data: readonly OpenedData[];
}

/**
 * The scenario's options and metrics as plain data; `execPath` runs the reader, `env` is what the
 * scenario's `env` holds there.
 */
export function readScenarioOptions(
  script: ScriptBundle,
  execPath: string,
  env: ScenarioEnv,
): Result<ScenarioOptions, ConfigIssue[]> {
  const request: OptionsRequest = { file: script.file, code: script.code, sourceMap: '', env };
  const child = spawnSync(execPath, ['--no-node-snapshot', ENTRY], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    timeout: READER_KILL_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.error !== undefined)
    return err([problem(script, 'options that evaluate without error', child.error.message)]);
  let reply: OptionsReply;
  try {
    reply = JSON.parse(child.stdout) as OptionsReply;
  } catch {
    const how = child.signal === null ? `exit code ${child.status}` : `signal ${child.signal}`;
    const said = child.stderr.trim().split('\n')[0] ?? '';
    return err([problem(script, 'options that evaluate without error', `${how} ${said}`.trim())]);
  }
  if (!reply.ok)
    return err([problem(script, 'options that evaluate without error', reply.message)]);
  const { metrics, data } = reply;
  if (reply.text === null) return ok({ options: undefined, metrics, data });
  const value: unknown = JSON.parse(reply.text);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return err([problem(script, 'an object of configuration keys', JSON.stringify(value))]);
  return ok({ options: value as Record<string, unknown>, metrics, data });
}

function problem(script: ScriptBundle, expected: string, actual: string): ConfigIssue {
  return {
    code: 'script_error',
    source: { kind: 'scenario', file: script.file },
    path: [],
    expected,
    actual,
  };
}
