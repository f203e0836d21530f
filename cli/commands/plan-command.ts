/**
 * Flags shared by `run` and `validate` (DESIGN.md §5), and loading the Plan from them. The loading
 * pipeline (schema, parsers) is imported by load(), not with the command: `--help` needs none of it.
 */
import { Option } from 'clipanion';
import { ConfigError } from '../../dsl/issues.js';
import type { Loaded } from '../../dsl/load-plan.js';
import type { WithBaseline } from '../compare/baseline.js';
import { formatWarnings } from '../render/user-errors.js';
import { VERSION } from '../version.js';
import { BaseCommand } from './base-command.js';

/** A TypeScript or JavaScript file: a scenario, not a configuration. */
function isScript(file: string | undefined): file is string {
  return file !== undefined && /\.[mc]?[jt]s$/i.test(file);
}

/** A command that loads a configuration from a file, the environment and flags. */
export abstract class PlanCommand extends BaseCommand {
  file = Option.String({ required: false, name: 'CONFIG' });
  // (a .ts or .js file there is a scenario, as --scenario: `barrage run script.ts`)
  config = Option.String('--config', { description: 'Configuration file (YAML or JSON)' });
  target = Option.String('--target', { description: 'Base URL of the requests' });
  concurrency = Option.String('-c,--concurrency', { description: 'Workers (virtual users)' });
  duration = Option.String('-d,--duration', { description: 'Run length: 30s, 1m30s, 2h' });
  requests = Option.String('-n,--requests', { description: 'Total iterations' });
  rate = Option.String('-r,--rate', {
    description: 'Permits per second (absent: as fast as possible)',
  });
  method = Option.String('--method', { description: 'HTTP method of the single-request form' });
  headers = Option.Array('--header', { description: "Header 'Name: value' (repeatable)" });
  body = Option.String('--body', { description: 'Request body of the single-request form' });
  timeout = Option.String('--timeout', { description: 'Deadline of one request, e.g. 10s' });
  stopGrace = Option.String('--stop-grace', {
    description:
      'After a stop signal, the most in-flight work may take before reports are written (default 20s)',
  });
  thresholds = Option.Array('--threshold', { description: 'Threshold expression (repeatable)' });
  json = Option.String('--json', { description: 'Write the JSON result to a file' });
  html = Option.String('--html', { description: 'Write the HTML report to a file' });
  junit = Option.String('--junit', { description: 'Write thresholds as JUnit XML to a file' });
  raw = Option.String('--raw', { description: 'Write the raw mergeable result to a file' });
  summaryMd = Option.String('--summary-md', { description: 'Write a Markdown summary to a file' });
  summaryBy = Option.String('--summary-by', {
    description: 'Break requests down by these tags in the reports (comma-separated: status,group)',
  });
  outputs = Option.Array('-o,--out', {
    description:
      'Stream metrics while running: prometheus-rw=URL, otlp=URL, influxdb=URL or json=FILE (repeatable)',
  });
  outputPeriod = Option.String('--out-period', {
    description: 'How often live outputs flush (default 5s)',
  });
  baseline = Option.String('--baseline', {
    description:
      "An earlier run's JSON or raw result: thresholds may read it ('http_req_duration:p95 < baseline * 1.10')",
  });
  httpDebug = Option.String('--http-debug', {
    tolerateBoolean: true,
    description: 'Write requests and responses as NDJSON: --http-debug (failed ones) or =all',
  });
  httpDebugFile = Option.String('--http-debug-file', {
    description: 'The file of --http-debug (default: stderr)',
  });
  scenario = Option.String('--scenario', { description: 'TypeScript scenario file' });
  only = Option.String('--only', {
    description: 'Run only these scenarios (comma-separated names), e.g. --only browse,checkout',
  });
  smoke = Option.Boolean('--smoke', false, {
    description: "A smoke run: each scenario's iteration once, with one virtual user",
  });
  typecheck = Option.Boolean('--typecheck', true, {
    description: 'Type-check a TypeScript scenario first (--no-typecheck skips it)',
  });
  envFlags = Option.Array('-e,--env', {
    description:
      "A variable the scenario reads as env.KEY: 'KEY=VALUE', or KEY for its value here (repeatable)",
  });
  threads = Option.String('--threads', { description: 'Worker threads, or auto' });
  seed = Option.String('--seed', { description: 'Random seed for reproducible choices' });
  segment = Option.String('--segment', {
    description: 'Run share i of n (distributed runs), e.g. 2/4',
  });
  startAt = Option.String('--start-at', { description: 'Begin dispatch at this ISO 8601 time' });
  insecure = Option.Boolean('--insecure', { description: 'Skip TLS certificate verification' });
  har = Option.String('--har', { description: 'Add endpoints recorded in a HAR file' });
  harFilters = Option.Array('--har-filter', {
    description: "Keep only matching HAR entries, e.g. '!static method:GET|POST' (repeatable)",
  });

  /**
   * Loads the Plan, printing warnings on stderr, and reads its baseline (relative thresholds get
   * their limits); throws ConfigError with every problem.
   */
  protected async load(): Promise<WithBaseline> {
    // `barrage run script.ts`, as k6 runs a script: a scenario given where the file goes.
    if (this.scenario === undefined && this.config === undefined && isScript(this.file)) {
      this.scenario = this.file;
      this.file = undefined;
    }
    if (this.file !== undefined && this.config !== undefined && this.file !== this.config) {
      throw new ConfigError([
        {
          code: 'invalid_value',
          source: { kind: 'flag', flag: '--config' },
          path: [],
          expected: 'one configuration file',
          actual: `both ${JSON.stringify(this.file)} and --config ${JSON.stringify(this.config)}`,
        },
      ]);
    }
    const [{ loadPlan }, { toFlagLayer }, { renderHarSummary }] = await Promise.all([
      import('../../dsl/load-plan.js'),
      import('../flags.js'),
      import('../render/har-summary.js'),
    ]);
    const flags = toFlagLayer(this);
    const loaded = await loadPlan({
      cwd: this.context.cwd,
      env: this.context.env,
      execPath: this.context.execPath,
      configFile: this.config ?? this.file,
      flags: flags.layer,
      flagIssues: flags.issues,
      ...(this.envFlags === undefined ? {} : { envFlags: this.envFlags }),
      userAgent: `barrage/${VERSION}`,
      // Any seed will do when the user gives none (results print the one used). Math.random, not
      // node:crypto: loading that costs every start of run and validate about 6 ms.
      fallbackSeed: Math.floor(Math.random() * 2 ** 31),
      typecheck: this.typecheck,
      ...(this.har === undefined && this.harFilters === undefined
        ? {}
        : { har: { file: this.har, filters: this.harFilters ?? [] } }),
    });
    const warnings = loaded.ok ? loaded.value.warnings : loaded.error.warnings;
    if (warnings.length > 0) this.context.stderr.write(formatWarnings(warnings));
    if (!loaded.ok) throw new ConfigError(loaded.error.issues);
    const value = await this.selected(loaded.value);
    if (value.har !== undefined) this.context.stderr.write(renderHarSummary(value.har));
    // Read only when named: a run without a baseline loads none of compare's machinery.
    if (value.plan.baseline === undefined) return { loaded: value, overlay: undefined };
    const { applyBaseline } = await import('../compare/baseline.js');
    return applyBaseline(value, this.context.cwd);
  }

  /** The loaded run with only the scenarios `--only` names, each once with `--smoke`. */
  private async selected(loaded: Loaded): Promise<Loaded> {
    if (this.only === undefined && !this.smoke) return loaded;
    const { selectScenarios } = await import('../scenario-selection.js');
    const selected = selectScenarios(loaded.plan, { only: this.only, smoke: this.smoke });
    if (selected.issues.length > 0) throw new ConfigError(selected.issues);
    return { ...loaded, plan: selected.plan };
  }
}
