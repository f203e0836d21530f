/**
 * A configuration's TypeScript scenario, loaded for the Plan (dsl/load-plan.ts): bundled,
 * type-checked, its `options` read into a layer with the variables named for it, the data files its
 * top level opens read, and the metrics it declares checked against the configuration's.
 */
import type { refusedOptions as RefusedOptions } from './options-boundary.js';
import { dirname, relative, resolve } from 'node:path';
import type { ConfigIssue, Source } from '../issues.js';
import { isPlainObject, type Layer, type Provenance } from '../layers.js';
import type { ScenarioEnv, ScriptBundle } from '../../model/plan/plan.js';
import type { OpenedData, SharedData } from '../../model/plan/shared-data.js';
import { err, ok, type Result } from '../result.js';
import type { Config } from '../schema/config-schema.js';
import { interpolateEnv, type Interpolated } from '../sources/interpolate.js';
import type { ScriptMetric } from './options-entry.js';
import type { DataFolder } from './read-shared-data.js';

/**
 * Bundles the scenario (a path relative to the configuration file when the file named it, to the
 * working directory otherwise), type-checks it, and reads its `options` into a layer, `${NAME}`
 * in them taken from `env`, the variables the user named for it. esbuild, TypeScript and the
 * child process that reads the options are imported only now: a configuration without a scenario
 * never loads them.
 */
export async function loadScenario(
  name: string,
  provenance: Provenance,
  dirs: {
    readonly cwd: string;
    readonly baseDir: string;
    readonly execPath: string;
    readonly typecheck: boolean;
  },
  env: ScenarioEnv,
): Promise<Result<LoadedScenario, ConfigIssue[]>> {
  const source = provenance.sourceOf(['scenario']);
  const base = source.kind === 'file' ? dirs.baseDir : dirs.cwd;
  const path = resolve(base, name);
  const [
    { bundleScenario },
    { readScenarioOptions },
    { refusedOptions },
    { scenarioFolder },
    { startTypeCheck },
  ] = await Promise.all([
    import('./bundle-scenario.js'),
    import('./scenario-options.js'),
    import('./options-boundary.js'),
    import('./scenario-folder.js'),
    import('./type-check-process.js'),
  ]);
  const bundled = await bundleScenario({
    path,
    shown: source.kind === 'file' ? relative(dirs.cwd, path) || name : name,
    source,
  });
  if (!bundled.ok) return bundled;
  const dir = scenarioFolder(path);
  const checking = dirs.typecheck
    ? startTypeCheck({ entry: path, folder: dir, cwd: dirs.cwd }, dirs.execPath)
    : Promise.resolve([]);
  const read = readScenarioOptions(bundled.value, dirs.execPath, env);
  // Type errors first: they also explain options that failed to evaluate.
  const typeErrors = await checking;
  if (typeErrors.length > 0) return err(typeErrors);
  if (!read.ok) return read;
  const { options, metrics } = read.value;
  const data = await loadSharedData(read.value.data, {
    folder: dir,
    shownDir: dirname(bundled.value.file),
  });
  if (!data.ok) return data;
  const script = data.value.length === 0 ? bundled.value : { ...bundled.value, data: data.value };
  const layer = optionsLayer(options, metrics, refusedOptions, { dir, file: script.file }, env);
  if (!layer.ok) return layer;
  return ok({ script, layer: layer.value, dir, ...(layer.value === undefined ? {} : { metrics }) });
}

/** A bundled scenario, its options as a layer and the folder its files are relative to. */
export interface LoadedScenario {
  readonly script: ScriptBundle;
  /** Its `options` (with the metrics its top level declares), at the file's precedence. */
  readonly layer: Layer | undefined;
  readonly dir: string;
  readonly metrics?: Readonly<Record<string, ScriptMetric>>;
}

/**
 * A scenario's `options` as a configuration layer: refused where they would widen the sandbox,
 * `${NAME}` taken from its environment, and the metrics its top level declares joined as
 * `metrics:` (docs/scenarios.md); undefined when it has neither options nor metrics.
 */
function optionsLayer(
  options: Readonly<Record<string, unknown>> | undefined,
  metrics: Readonly<Record<string, ScriptMetric>>,
  refusedOptions: typeof RefusedOptions,
  where: { readonly dir: string; readonly file: string },
  env: ScenarioEnv,
): Result<Layer | undefined, ConfigIssue[]> {
  const declares = Object.keys(metrics).length > 0;
  if (options === undefined && !declares) return ok(undefined);
  const at: Source = { kind: 'scenario', file: where.file };
  const refused = refusedOptions(options ?? {}, where.dir, at);
  if (refused.length > 0) return err(refused);
  const expanded = interpolateOptions(options ?? {}, env, at);
  if (expanded.issues.length > 0) return err([...expanded.issues]);
  const given = expanded.value as Record<string, unknown>;
  const own = isPlainObject(given.metrics) ? given.metrics : {};
  const values = declares ? { ...given, metrics: { ...metrics, ...own } } : given;
  return ok({
    name: 'scenario',
    values,
    sourceOf: () => at,
    secretPaths: expanded.secretPaths,
    secretValues: expanded.secretValues,
  });
}

/** Reads the data files a scenario opens; the readers are imported only when it opens one. */
async function loadSharedData(
  opened: readonly OpenedData[],
  where: DataFolder,
): Promise<Result<readonly SharedData[], ConfigIssue[]>> {
  if (opened.length === 0) return ok([]);
  const { readSharedData } = await import('./read-shared-data.js');
  return readSharedData(opened, where);
}

/**
 * `${NAME}` in a scenario's options, as in a configuration file, but from the variables the user
 * named for the scenario only: the file is untrusted, and `headers: { x: '${AWS_SECRET}' }` would
 * send any variable of barrage's environment to the target.
 */
function interpolateOptions(
  options: Readonly<Record<string, unknown>>,
  env: ScenarioEnv,
  at: Source,
): Interpolated {
  const expanded = interpolateEnv(options, env, () => at);
  return {
    ...expanded,
    issues: expanded.issues.map((issue) => ({
      ...issue,
      expected: `${issue.expected}, and named for the scenario`,
      hint: 'a scenario reads only the variables named with --env NAME or scenario_env in the configuration file',
    })),
  };
}

/**
 * A metric the scenario declares with one type and the configuration's `metrics:` with another:
 * the file's declaration wins the merge, so the scenario's add() would feed the wrong kind.
 */
export function metricConflicts(
  config: Config,
  declared: Readonly<Record<string, ScriptMetric>>,
  script: ScriptBundle | undefined,
): ConfigIssue[] {
  if (script === undefined) return [];
  return Object.entries(declared).flatMap(([name, { type }]) => {
    const kind = config.metrics[name]?.kind;
    if (kind === undefined || kind === type) return [];
    return [
      {
        code: 'invalid_value' as const,
        source: { kind: 'scenario' as const, file: script.file },
        path: ['metrics', name],
        expected: `one type per metric: the configuration declares ${name} as a ${kind}`,
        actual: `new ${type[0]!.toUpperCase()}${type.slice(1)}('${name}') in the scenario`,
      },
    ];
  });
}
