/**
 * What a scenario's `export const options` may not set (docs/scenarios.md, "Security model"):
 * options come from the untrusted file, so they may tune the load but not widen the sandbox.
 * - `scenario`, `endpoints`, `flows`: what runs is the scenario itself;
 * - `target`, `allowed_hosts`, `proxy`: where a scenario may send is the user's choice;
 * - `auth`: credentials, and where they go (an OAuth token_url), are the user's;
 * - `tls`: client certificates are credentials, and its files are read wherever they are;
 * - `report` (every key: json, html, junit, summary_md, raw): a scenario writes no file;
 * - `outputs`: a live output sends the run's figures to a receiver or writes a file;
 * - `http_debug`: the debug log writes a file, and shows the requests and responses it selects;
 * - `scenario_env`: which environment variables the scenario may read is the user's choice;
 * - `baseline`: a file read wherever it is (a scenario reads nothing outside its folder);
 * - `feeder.file` must be inside the scenario's folder by its real path, like its imports.
 */
import { resolve } from 'node:path';
import type { ConfigIssue, Source } from '../issues.js';
import { isPlainObject } from '../layers.js';
import { isInsideFolder } from './scenario-folder.js';

/** Where the refused keys belong instead (the hint of each issue). */
const ELSEWHERE = 'set it in the configuration file, a flag or the environment';

/** Keys refused in options, and why (the `expected` of the issue); `hint` when they belong elsewhere. */
const REFUSED: Readonly<Record<string, { expected: string; hint?: string }>> = {
  scenario: { expected: 'run settings in options (the scenario itself is what runs)' },
  endpoints: { expected: 'run settings in options (the scenario itself is what runs)' },
  flows: { expected: 'run settings in options (the scenario itself is what runs)' },
  target: {
    expected: 'no target in options (a scenario may not choose where it sends)',
    hint: ELSEWHERE,
  },
  allowed_hosts: {
    expected: 'no allowed_hosts in options (a scenario may not widen where it sends)',
    hint: ELSEWHERE,
  },
  proxy: {
    expected: 'no proxy in options (a scenario may not choose where its connections go)',
    hint: ELSEWHERE,
  },
  auth: {
    expected: 'no auth in options (credentials, and where they are sent, are the user’s)',
    hint: ELSEWHERE,
  },
  tls: {
    expected:
      'no tls in options (client certificates and the files they are read from are the user’s)',
    hint: ELSEWHERE,
  },
  report: { expected: 'no report file in options (a scenario writes no file)', hint: ELSEWHERE },
  outputs: {
    expected: 'no outputs in options (a scenario sends nowhere and writes no file)',
    hint: ELSEWHERE,
  },
  baseline: {
    expected:
      'no baseline in options (its file is read wherever it is; a scenario reads only its folder)',
    hint: ELSEWHERE,
  },
  http_debug: {
    expected: 'no http_debug in options (a scenario writes no file)',
    hint: ELSEWHERE,
  },
  scenario_env: {
    expected: 'no scenario_env in options (a scenario may not choose which variables it reads)',
    hint: 'name them with --env or scenario_env in the configuration file',
  },
};

/** Every key of `options` a scenario may not set; `folder` is the scenario's real folder. */
export function refusedOptions(
  options: Readonly<Record<string, unknown>>,
  folder: string,
  at: Source,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [key, why] of Object.entries(REFUSED)) {
    if (!(key in options)) continue;
    const value = options[key];
    const paths =
      key === 'report' && isPlainObject(value) && Object.keys(value).length > 0
        ? Object.keys(value).map((sub) => [key, sub])
        : [[key]];
    for (const path of paths)
      issues.push({
        code: 'invalid_value',
        source: at,
        path,
        ...why,
        actual: `options.${path.join('.')}`,
      });
  }
  const feeder = options.feeder;
  if (isPlainObject(feeder) && typeof feeder.file === 'string') {
    if (!isInsideFolder(folder, resolve(folder, feeder.file)))
      issues.push({
        code: 'invalid_value',
        source: at,
        path: ['feeder', 'file'],
        expected: `a feeder file inside the scenario's folder (${folder})`,
        actual: `${JSON.stringify(feeder.file)}, which is outside it`,
        hint: `to read one elsewhere, ${ELSEWHERE}`,
      });
  }
  return issues;
}
