/**
 * The dsl's front door: file + environment + flags → validated Config → Plan.
 * Every problem of every layer is collected and returned together; nothing here throws for
 * user errors and nothing here sends traffic.
 */
import { dirname, resolve } from 'node:path';
import { compilePlan, type CompileInputs } from './compile/compile-plan.js';
import { compileProxy } from './compile/proxy.js';
import { loadCssSelectors } from './grammar/css-selector.js';
import { checkPlaceholders } from './compile/lint-plan.js';
import type { HarEndpoints, HarSummary } from './har/har-to-endpoints.js';
import { formatPath, type ConfigIssue, type ConfigWarning, type Source } from './issues.js';
import {
  findForbiddenKeys,
  isPlainObject,
  mergeLayers,
  type Layer,
  type Provenance,
} from './layers.js';
import type { FeederPlan, Plan, ScenarioEnv, ScriptBundle } from '../model/plan/plan.js';
import { err, ok, type Result } from './result.js';
import { configSchemaFor, type Config } from './schema/config-schema.js';
import { refineConfig, type Refinement } from './schema/refinements.js';
import type { ScriptMetric } from './script/options-entry.js';
import { loadScenario, metricConflicts } from './script/load-scenario.js';
import { toConfigIssues } from './schema/zod-issues.js';
import { SecretSet } from './secret-set.js';
import { readEnvLayer } from './sources/env-source.js';
import { readMultipartFiles } from './sources/multipart-files.js';
import { interpolateEnv } from './sources/interpolate.js';
import { scenarioEnv } from './sources/scenario-env-source.js';

/** What loading needs; the cli fills it from argv, the environment and the working directory. */
export interface LoadInputs {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The running Node: it reads a TypeScript scenario's options in a child process. */
  readonly execPath: string;
  /** The configuration file as the user named it, if any. */
  readonly configFile: string | undefined;
  /** The flag layer (cli/flags.ts) and the problems found while building it. */
  readonly flags: Layer;
  readonly flagIssues: readonly ConfigIssue[];
  readonly userAgent: string;
  readonly fallbackSeed: number;
  /** `--env` entries (KEY=VALUE or KEY): variables the scenario reads (scenario-env-source.ts). */
  readonly envFlags?: readonly string[];
  /** `--har` and `--har-filter`: recorded endpoints merged into the configuration. */
  readonly har?: { readonly file: string | undefined; readonly filters: readonly string[] };
  /** False skips the type check of a TypeScript scenario (`--no-typecheck`); default true. */
  readonly typecheck?: boolean;
}

/** A loaded run: the Plan plus what `validate` shows about it. */
export interface Loaded {
  readonly plan: Plan;
  readonly config: Config;
  /** The merged input before validation (what the user wrote, by layer precedence). */
  readonly raw: Readonly<Record<string, unknown>>;
  readonly provenance: Provenance;
  readonly warnings: readonly ConfigWarning[];
  /** Directory that relative paths inside the configuration file are resolved against. */
  readonly baseDir: string;
  /** What `--har` imported, when it was given. */
  readonly har?: HarSummary;
  /** Every secret string found in the layers: what every output must redact. */
  readonly secrets: SecretSet;
}

/** Everything found wrong, and the warnings gathered on the way. */
export interface LoadFailure {
  readonly issues: readonly ConfigIssue[];
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Loads, merges, validates and compiles. Every issue and warning comes back redacted: the layers'
 * secrets are collected as each layer is read, before anything can fail.
 */
export async function loadPlan(inputs: LoadInputs): Promise<Result<Loaded, LoadFailure>> {
  const secrets = new SecretSet();
  const loaded = await loadWith(inputs, secrets);
  const warnings = (loaded.ok ? loaded.value.warnings : loaded.error.warnings).map((w) =>
    secrets.redactWarning(w),
  );
  if (!loaded.ok)
    return err({ issues: loaded.error.issues.map((i) => secrets.redactIssue(i)), warnings });
  return ok({ ...loaded.value, warnings, secrets });
}

async function loadWith(
  inputs: LoadInputs,
  secrets: SecretSet,
): Promise<Result<Omit<Loaded, 'secrets'>, LoadFailure>> {
  const read = await readLayers(inputs, secrets);
  const { layers, issues, warnings, baseDir } = read;
  if (!read.ok) return err({ issues, warnings });
  // Loops, not push(...list): a spread of 100,000 issues overflows the stack.
  for (const layer of layers) for (const issue of findForbiddenKeys(layer)) issues.push(issue);
  const har =
    inputs.har === undefined ? undefined : await loadHar(inputs, mergeLayers(layers).raw, issues);
  // The HAR's endpoints join the merged layers before validation (docs/har.md).
  const withHar = har?.extend ?? ((merged: Merged): Merged => merged);
  const validated = await validateLayers(layers, issues, withHar);
  if (!validated.ok) return err({ issues: validated.error, warnings });
  const scenario = await withScenario(inputs, secrets, baseDir, validated.value, (options) =>
    validateLayers([...layers, options], findForbiddenKeys(options), withHar),
  );
  if (!scenario.ok) return err({ issues: scenario.error, warnings });
  const { config, raw, provenance } = scenario.value.validated;
  const located = (list: readonly Refinement[]): ConfigIssue[] =>
    list.map((r) => ({ ...r, source: provenance.sourceOf(r.path) }));
  const { script, metrics, dir, env } = scenario.value;
  const refined = [...metricConflicts(config, metrics, script), ...located(refineConfig(config))];
  if (refined.length > 0) return err({ issues: refined, warnings });
  const files = await readRunFiles(inputs, config, provenance, baseDir, dir);
  if (!files.ok) return err({ issues: files.error, warnings });
  const compiled = compilePlan(config, {
    env: inputs.env,
    userAgent: inputs.userAgent,
    fallbackSeed: inputs.fallbackSeed,
    ...files.value,
    ...(script === undefined ? {} : { script, scriptEnv: env }),
  });
  if (compiled.issues.length > 0) return err({ issues: located(compiled.issues), warnings });
  const unfillable = located(checkPlaceholders(compiled.plan));
  if (unfillable.length > 0) return err({ issues: unfillable, warnings });
  if (config.insecure)
    warnings.push({
      code: 'insecure_tls',
      source: provenance.sourceOf(['insecure']),
      path: ['insecure'],
      message:
        'insecure: TLS certificates are not verified: any server can answer for the target (use tls.ca for a private CA)',
    });
  const loaded = { plan: compiled.plan, config, raw, provenance, warnings, baseDir };
  return ok(har === undefined ? loaded : { ...loaded, har: har.endpoints.summary });
}

/** The layers a run is read from: flags, the environment and the configuration file. */
async function readLayers(
  inputs: LoadInputs,
  secrets: SecretSet,
): Promise<{
  ok: boolean;
  layers: Layer[];
  issues: ConfigIssue[];
  warnings: ConfigWarning[];
  baseDir: string;
}> {
  const issues: ConfigIssue[] = [...inputs.flagIssues];
  const layers: Layer[] = [inputs.flags];
  const env = readEnvLayer(inputs.env);
  issues.push(...env.issues);
  layers.push(env.layer);
  secrets.addLayer(inputs.flags);
  secrets.addLayer(env.layer);
  const warnings: ConfigWarning[] = [...env.warnings];
  if (inputs.configFile === undefined)
    return { ok: true, layers, issues, warnings, baseDir: inputs.cwd };
  const path = resolve(inputs.cwd, inputs.configFile);
  const file = await readFileLayer(path, inputs.configFile, inputs.env);
  issues.push(...file.issues);
  // An unreadable file leaves nothing to validate: the schema would only add noise.
  if (file.layer === undefined)
    return { ok: false, layers, issues, warnings, baseDir: dirname(path) };
  secrets.addLayer(file.layer);
  layers.push(file.layer);
  return { ok: true, layers, issues, warnings, baseDir: dirname(path) };
}

/** A validated configuration. */
type Validated = { config: Config } & Merged;

/** What a TypeScript scenario adds to a run, and the configuration validated with its options. */
interface WithScenario {
  readonly validated: Validated;
  readonly script: ScriptBundle | undefined;
  readonly metrics: Readonly<Record<string, ScriptMetric>>;
  /** The folder the scenario's own files are relative to (the configuration's without one). */
  readonly dir: string;
  readonly env: ScenarioEnv;
}

/**
 * The configuration's TypeScript scenario, when it names one: bundled and type-checked, its
 * environment, and its `options` as a layer at the file's precedence (`revalidate` validates the
 * layers again with it).
 */
async function withScenario(
  inputs: LoadInputs,
  secrets: SecretSet,
  baseDir: string,
  validated: Validated,
  revalidate: (options: Layer) => Promise<Result<Validated, ConfigIssue[]>>,
): Promise<Result<WithScenario, ConfigIssue[]>> {
  const none = { validated, script: undefined, metrics: {}, dir: baseDir, env: {} };
  if (validated.config.scenario === undefined) return ok(none);
  const env = scenarioEnv(validated.config.scenario_env ?? [], inputs.envFlags ?? [], inputs.env);
  if (!env.ok) return env;
  // They may be tokens: secrets, as the values ${NAME} takes are.
  for (const value of Object.values(env.value)) secrets.add(value);
  const scenario = await loadScenario(
    validated.config.scenario,
    validated.provenance,
    { cwd: inputs.cwd, baseDir, execPath: inputs.execPath, typecheck: inputs.typecheck ?? true },
    env.value,
  );
  if (!scenario.ok) return scenario;
  const { script, dir, layer } = scenario.value;
  const own = { script, metrics: scenario.value.metrics ?? {}, dir, env: env.value };
  if (layer === undefined) return ok({ ...own, validated });
  secrets.addLayer(layer);
  // The scenario's options sit at the file's precedence, below the configuration file.
  const again = await revalidate(layer);
  return again.ok ? ok({ ...own, validated: again.value }) : again;
}

/** The files a run reads besides its configuration: the feeder, multipart files, TLS, proxies. */
async function readRunFiles(
  inputs: LoadInputs,
  config: Config,
  provenance: Provenance,
  baseDir: string,
  scenarioDir: string,
): Promise<
  Result<
    Pick<CompileInputs, 'feeder' | 'multipartFiles' | 'tls' | 'proxy' | 'grpcMethods'>,
    ConfigIssue[]
  >
> {
  // A feeder file named in the scenario's options is relative to the scenario's (real) folder.
  const feederBase =
    provenance.sourceOf(['feeder', 'file']).kind === 'scenario' ? scenarioDir : baseDir;
  const feeder = await loadFeeder(config, feederBase, provenance);
  // Per-user multipart files are those the feeder's records name.
  const files = readMultipartFiles(
    config,
    baseDir,
    provenance,
    feeder.ok ? feeder.value : undefined,
  );
  // node:crypto and node:tls only for a configuration with `tls:` (start-up: cli/startup-loads).
  const tls =
    config.tls === undefined
      ? ok(undefined)
      : (await import('./sources/tls-files.js')).readTlsFiles(config, baseDir, provenance);
  const proxy = compileProxy(config.proxy, inputs.env);
  // @grpc/proto-loader only for a configuration with gRPC endpoints.
  const grpc = !(config.endpoints ?? []).some((e) => e.grpc !== undefined)
    ? ok(undefined)
    : (await import('./sources/grpc-protos.js')).readGrpcProtos(config, baseDir, provenance);
  if (!feeder.ok || !files.ok || !tls.ok || !proxy.ok || !grpc.ok)
    return err([
      ...(grpc.ok ? [] : grpc.error),
      ...(feeder.ok ? [] : feeder.error),
      ...(files.ok ? [] : files.error),
      ...(tls.ok ? [] : tls.error),
      ...(proxy.ok ? [] : proxy.error),
    ]);
  return ok({
    multipartFiles: files.value,
    ...(proxy.value === undefined ? {} : { proxy: proxy.value }),
    ...(tls.value === undefined ? {} : { tls: tls.value }),
    ...(grpc.value === undefined ? {} : { grpcMethods: grpc.value }),
    ...(feeder.value === undefined ? {} : { feeder: feeder.value }),
  });
}

/**
 * Imports the HAR of `--har` (the HAR modules loaded only then); its problems join `issues`.
 * Returns its endpoints and how they join the merged layers.
 */
async function loadHar(
  inputs: LoadInputs,
  raw: Readonly<Record<string, unknown>>,
  issues: ConfigIssue[],
): Promise<{ endpoints: HarEndpoints; extend: (merged: Merged) => Merged } | undefined> {
  const { file, filters } = inputs.har ?? { file: undefined, filters: [] };
  if (file === undefined) {
    if (filters.length > 0)
      issues.push({
        code: 'missing_value',
        source: { kind: 'flag', flag: '--har-filter' },
        path: [],
        expected: '--har FILE for the filter to apply to',
        actual: 'no --har',
      });
    return undefined;
  }
  const [{ importHarResponsive }, { endpointNames, mergeHar }] = await Promise.all([
    import('./har/har-import-thread.js'),
    import('./har/merge-har.js'),
  ]);
  // A large recording off the main thread: it takes seconds, and Ctrl+C must end it at once.
  const { imported } = await importHarResponsive({
    yaml: false,
    inputs: {
      cwd: inputs.cwd,
      file,
      filters,
      target: typeof raw.target === 'string' ? raw.target : undefined,
      keepSecrets: false,
      asFlow: false,
      takenNames: endpointNames(raw),
    },
  });
  if (!imported.ok) {
    issues.push(...imported.error);
    return undefined;
  }
  const endpoints = imported.value;
  return {
    endpoints,
    extend: (merged) => mergeHar(merged.raw, merged.provenance, endpoints, file),
  };
}

/** Merged layers: the raw values and where each came from. */
type Merged = { raw: Record<string, unknown>; provenance: Provenance };

/**
 * Merges layers, lets `extend` add to the result (the HAR's endpoints), and validates it against
 * the schema; `issues` are the layers' own.
 */
async function validateLayers(
  layers: readonly Layer[],
  issues: ConfigIssue[],
  extend: (merged: Merged) => Merged,
): Promise<Result<{ config: Config } & Merged, ConfigIssue[]>> {
  const { raw, provenance } = extend(mergeLayers(layers));
  await loadCssSelectors(raw);
  // jitless: zod would compile a parser (new Function) for each object schema, for one parse.
  const parsed = configSchemaFor(raw).safeParse(raw, { reportInput: true, jitless: true });
  if (!parsed.success)
    for (const issue of notCovered(toConfigIssues(parsed.error.issues, provenance, raw), issues))
      issues.push(issue);
  if (!parsed.success || issues.length > 0) return err(issues);
  return ok({ config: parsed.data, raw, provenance });
}

/**
 * Reads the feeder file (relative to the configuration file) into the Plan's records; the
 * readers (csv-parse among them) are imported only for a configuration with a feeder.
 */
async function loadFeeder(
  config: Config,
  baseDir: string,
  provenance: Provenance,
): Promise<Result<FeederPlan | undefined, ConfigIssue[]>> {
  const feeder = config.feeder;
  if (feeder === undefined) return ok(undefined);
  const { readFeeder } = await import('./feeder/read-feeder.js');
  const read = readFeeder({
    path: resolve(baseDir, feeder.file),
    shown: feeder.file,
    format: feeder.format,
    types: feeder.types,
    maxTokens: feeder.max_tokens,
  });
  if (!read.ok) {
    // A problem inside the file names its line; one about the file itself points at the key.
    const at = provenance.sourceOf(['feeder', 'file']);
    return err(
      read.error.map((issue) =>
        issue.source.kind === 'file' && issue.source.line !== undefined
          ? issue
          : { ...issue, source: at },
      ),
    );
  }
  // With setup endpoints (a login), a worker is one user: its record is kept for its whole life.
  const per = feeder.per ?? (config.endpoints?.some((e) => e.setup) ? 'worker' : 'iteration');
  return ok({ file: feeder.file, order: feeder.order, cycle: feeder.cycle, per, ...read.value });
}

/**
 * The configuration file as a layer. The YAML parser is imported only now: a run of flags alone
 * never loads it.
 */
async function readFileLayer(
  path: string,
  shown: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ layer?: Layer; issues: ConfigIssue[] }> {
  const { readSourceFile } = await import('./sources/file-source.js');
  const doc = readSourceFile(path);
  const rename = (source: Source): Source =>
    source.kind === 'file' ? { ...source, file: shown } : source;
  if (!doc.ok)
    return { issues: doc.error.map((issue) => ({ ...issue, source: rename(issue.source) })) };
  const locate = (p: readonly (string | number)[], key?: boolean): Source =>
    rename(doc.value.locate(p, key));
  if (!isPlainObject(doc.value.value)) {
    return {
      issues: [
        {
          code: 'invalid_type',
          source: locate([]),
          path: [],
          expected: 'a mapping of configuration keys',
          actual: describeTop(doc.value.value),
        },
      ],
    };
  }
  const interpolated = interpolateEnv(doc.value.value, env, locate);
  const layer: Layer = {
    name: 'file',
    values: interpolated.value as Record<string, unknown>,
    sourceOf: locate,
    secretPaths: interpolated.secretPaths,
    secretValues: interpolated.secretValues,
  };
  return { layer, issues: [...interpolated.issues] };
}

/** Schema issues at paths (or under paths) that a layer already reported are the same problem. */
function notCovered(
  schema: readonly ConfigIssue[],
  reported: readonly ConfigIssue[],
): ConfigIssue[] {
  const covered = reported.map((issue) => formatPath(issue.path));
  return schema.filter((issue) => {
    const path = formatPath(issue.path);
    return !covered.some(
      (c) => c !== '' && (path === c || path.startsWith(`${c}.`) || path.startsWith(`${c}[`)),
    );
  });
}

function describeTop(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'nothing' : `${typeof value} ${JSON.stringify(value)}`;
}
