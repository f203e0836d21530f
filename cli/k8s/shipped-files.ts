/**
 * The files a distributed run's pods need, read for the ConfigMap (k8s-manifests.ts): the
 * configuration file, its TypeScript scenario, its feeder file, the data files the scenario's top
 * level opens, and any `--include`d file, each by its path relative to the configuration's folder
 * (where the pods mount them). A file outside that folder, or more than a ConfigMap holds, is a
 * ConfigError naming it.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import type { Loaded } from '../../dsl/load-plan.js';
import type { ShippedFile } from './k8s-manifests.js';

/** A ConfigMap holds at most 1 MiB; the rest of the object needs a little of it. */
const MAX_CONFIG_MAP_BYTES = 1024 * 1024 - 16 * 1024;

/** The files, the configuration's first; `configFile` and `includes` as the user named them. */
export function shippedFiles(
  loaded: Loaded,
  cwd: string,
  configFile: string,
  includes: readonly string[],
): ShippedFile[] {
  const base = loaded.baseDir;
  const wanted = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  const add = (absolute: string, named: string, flag: string): void => {
    const path = relative(base, absolute);
    if (path.startsWith('..') || isAbsolute(path))
      issues.push(issue(flag, `a file inside ${base} (the pods mount that folder)`, named));
    else wanted.set(path.split('\\').join('/'), absolute);
  };
  add(resolve(cwd, configFile), configFile, 'CONFIG');
  const scenario = loaded.config.scenario;
  if (scenario !== undefined) {
    const file = resolve(base, scenario);
    add(file, scenario, 'scenario');
    for (const data of loaded.plan.script?.data ?? [])
      add(resolve(dirname(file), data.name), data.name, 'scenario data');
  }
  const feeder = loaded.config.feeder?.file;
  if (feeder !== undefined) add(resolve(base, feeder), feeder, 'feeder.file');
  for (const file of includes) add(resolve(cwd, file), file, '--include');
  if (issues.length > 0) throw new ConfigError(issues);
  const files = [...wanted].map(([path, absolute]) => ({ path, content: read(absolute, path) }));
  const size = files.reduce((sum, f) => sum + f.content.length, 0);
  if (size > MAX_CONFIG_MAP_BYTES)
    throw new ConfigError([
      issue(
        'CONFIG',
        `files of at most ${MAX_CONFIG_MAP_BYTES} bytes in all (a ConfigMap holds 1 MiB)`,
        `${size} bytes: ${files.map((f) => `${f.path} (${f.content.length})`).join(', ')}`,
      ),
    ]);
  return files;
}

function read(absolute: string, path: string): Buffer {
  try {
    return readFileSync(absolute);
  } catch (error) {
    throw new ConfigError([
      issue(
        '--include',
        'a readable file',
        `${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      ),
    ]);
  }
}

function issue(flag: string, expected: string, actual: string): ConfigIssue {
  return { code: 'invalid_value', source: { kind: 'flag', flag }, path: [], expected, actual };
}

/** The configuration file's path under the mount. */
export function configPath(loaded: Loaded, cwd: string, configFile: string): string {
  return relative(loaded.baseDir, resolve(cwd, configFile)).split('\\').join('/');
}
