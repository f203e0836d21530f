/** Config (+ feeder records, + script bundle) → Plan: the only input the runtime needs. */
import { compileOutputs } from './outputs.js';
import type { GrammarError } from '../grammar/grammar-error.js';
import { lineBreaksIn } from '../grammar/line-breaks.js';
import type { Result } from '../result.js';
import { DEFAULT_CONCURRENCY, type Config } from '../schema/config-schema.js';
import type { Refinement } from '../schema/refinements.js';
import { configuredThresholds } from '../schema/configured-thresholds.js';
import type { FeederPlan, Plan, ScenarioEnv, ScriptBundle } from '../../model/plan/plan.js';
import type { ProxyPlan } from '../../model/plan/proxy-plan.js';
import type { TlsPlan } from '../../model/plan/tls-plan.js';
import type { PatternPlan, RatePlan } from '../../model/plan/rate-plan.js';
import type { Template } from '../../model/plan/template.js';
import type { MultipartFiles } from '../sources/multipart-files.js';
import type { GrpcMethods } from '../sources/grpc-protos.js';
import { resolveTemplate, type EnvResolver } from './resolve-template.js';
import { compileScenarios } from './scenarios.js';
import { compileGraph, compileRunHeaders } from './scenario-graph.js';

/** When neither duration, requests nor a pattern bounds a run, it lasts this long. */
export const DEFAULT_DURATION_MS = 10_000;

/** What compiling needs besides the Config. */
export interface CompileInputs {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Sent as User-Agent unless the config sets one: barrage/<version>. */
  readonly userAgent: string;
  /** Used when the config has no seed. */
  readonly fallbackSeed: number;
  readonly feeder?: FeederPlan;
  readonly script?: ScriptBundle;
  /** The variables the user named for the scenario (its `env`). */
  readonly scriptEnv?: ScenarioEnv;
  /** The bytes of the multipart files, read by load-plan. */
  readonly multipartFiles?: MultipartFiles;
  /** The run's proxies (compileProxy: the `proxy` key and the environment). */
  readonly proxy?: ProxyPlan;
  /** Each gRPC endpoint's method, from its proto (dsl/sources/grpc-protos.ts), by load-plan. */
  readonly grpcMethods?: GrpcMethods;
  /** The `tls:` files, read and checked by load-plan. */
  readonly tls?: TlsPlan;
}

/** Compiles a validated Config; problems (such as an unset {{$env NAME}}) come back with paths. */
export function compilePlan(
  config: Config,
  inputs: CompileInputs,
): { plan: Plan; issues: Refinement[] } {
  const issues: Refinement[] = [];
  const env = envResolver(inputs.env, issues);
  const graph = compileGraph(
    config,
    inputs.userAgent,
    env,
    inputs.multipartFiles,
    inputs.grpcMethods,
  );
  const plan: Plan = {
    target: config.target,
    timeoutMs: config.timeout,
    stopGraceMs: config.stop_grace,
    graph,
    scenarios: compileScenarios(config, graph, loadOf(config)),
    namedScenarios: config.scenarios !== undefined,
    thresholds: configuredThresholds(config).map((parsed) => checked(parsed)),
    baseline: config.baseline,
    metrics: config.metrics,
    tags: config.tags,
    retry: retryPlan(config.retry),
    auth: authPlan(config, env),
    feeder: inputs.feeder,
    script:
      inputs.script === undefined
        ? undefined
        : {
            ...inputs.script,
            headers: compileRunHeaders(config, inputs.userAgent, env),
            expect: config.expect?.status,
            env: inputs.scriptEnv ?? {},
          },
    seed: config.seed ?? inputs.fallbackSeed,
    threads: config.threads,
    segment: config.segment ?? { index: 1, count: 1 },
    startAt: config.start_at,
    insecure: config.insecure,
    proxy: inputs.proxy,
    tls: inputs.tls,
    http2: config.http2,
    cookies: config.cookies,
    maxRedirects: config.max_redirects,
    allowedHosts: config.allowed_hosts ?? [],
    report: reportPlan(config.report),
    outputs: compileOutputs(config),
    httpDebug: httpDebugPlan(config.http_debug),
  };
  return { plan, issues };
}

/**
 * How {{$env NAME}} is resolved: the variable's value; an unset one, or one holding a line
 * break where a single line goes (a url, a header), is an issue at its path (never its value).
 */
function envResolver(
  vars: Readonly<Record<string, string | undefined>>,
  issues: Refinement[],
): EnvResolver {
  return (name, path, singleLine) => {
    const value = vars[name];
    if (value === undefined) {
      issues.push({
        code: 'missing_env',
        path,
        expected: `environment variable ${name} to be set ({{$env ${name}}})`,
        actual: `${name} unset`,
      });
      return '';
    }
    const found = singleLine ? lineBreaksIn(value) : undefined;
    if (found !== undefined) {
      // The value is never shown: it may be a secret.
      issues.push({
        code: 'invalid_value',
        path,
        expected: `environment variable ${name} without CR, LF or NUL ({{$env ${name}}} in a url or header)`,
        actual: `${name} holding ${found}`,
      });
      return '';
    }
    return value;
  };
}

/** The top-level form's load: concurrency, a duration (by default when nothing bounds it), a rate. */
function loadOf(config: Config) {
  const rate = ratePlan(config);
  const bounded =
    config.duration !== undefined || config.requests !== undefined || rate.kind === 'pattern';
  return {
    concurrency: config.concurrency ?? DEFAULT_CONCURRENCY,
    durationMs: config.duration ?? (bounded ? undefined : DEFAULT_DURATION_MS),
    requests: config.requests,
    rate,
    timeoutMs: config.timeout,
  };
}

function retryPlan(retry: Config['retry']): Plan['retry'] {
  if (retry === undefined) return undefined;
  return {
    maxAttempts: retry.max_attempts,
    backoffMs: retry.backoff,
    maxBackoffMs: retry.max_backoff,
    jitter: retry.jitter,
    budget: retry.budget,
    minRetriesPerSec: retry.min_retries_per_sec,
  };
}

function reportPlan(report: Config['report']): Plan['report'] {
  return {
    json: report.json,
    html: report.html,
    junit: report.junit,
    summaryMd: report.summary_md,
    raw: report.raw,
    summaryBy: report.summary_by ?? [],
  };
}

function httpDebugPlan(debug: Config['http_debug']): Plan['httpDebug'] {
  if (debug === undefined) return undefined;
  return {
    requests: debug.requests,
    file: debug.file,
    maxBytes: debug.max_bytes,
    perSecond: debug.per_second,
  };
}

function ratePlan(config: Config): RatePlan {
  if (config.pattern !== undefined)
    return { kind: 'pattern', pattern: patternPlan(config.pattern) };
  if (config.rate !== undefined) return { kind: 'constant', rate: config.rate };
  return { kind: 'unlimited' };
}

/** Pattern config → plan, with the spike defaults of pattern-schema.ts applied. */
export function patternPlan(pattern: NonNullable<Config['pattern']>): PatternPlan {
  switch (pattern.type) {
    case 'ramp':
      return { type: 'ramp', from: pattern.from, to: pattern.to, durationMs: pattern.duration };
    case 'step':
      return {
        type: 'step',
        steps: pattern.steps.map((s) => ({ rate: s.rate, durationMs: s.duration })),
      };
    case 'spike':
      return {
        type: 'spike',
        base: pattern.base,
        peak: pattern.peak,
        durationMs: pattern.duration,
        atMs: pattern.at ?? Math.round(pattern.duration / 4),
        riseMs: pattern.rise ?? 0,
        holdMs: pattern.hold ?? Math.round(pattern.duration / 10),
        fallMs: pattern.fall ?? 0,
      };
  }
}

function authPlan(config: Config, env: EnvResolver): Plan['auth'] {
  const auth = config.auth;
  if (auth === undefined) return undefined;
  const template = (text: string, key: string): Template =>
    resolveTemplate(text, ['auth', key], env, { singleLine: key === 'token' });
  switch (auth.type) {
    case 'oauth2':
      return {
        type: 'oauth2',
        tokenUrl: auth.token_url,
        clientId: auth.client_id,
        clientSecret: auth.client_secret,
        grantType: auth.grant_type,
        scope: auth.scope,
        audience: auth.audience,
        clientAuth: auth.client_auth,
        refreshBeforeExpiryMs: auth.refresh_before_expiry,
        maxRetries: auth.max_retries,
      };
    case 'bearer':
      return { type: 'bearer', token: template(auth.token, 'token') };
    case 'basic':
      return {
        type: 'basic',
        username: template(auth.username, 'username'),
        password: template(auth.password, 'password'),
      };
  }
}

/** The value of a parse the refinements already passed; a failure here is a bug. */
function checked<T>(parsed: Result<T, GrammarError>): T {
  if (!parsed.ok) throw new Error(`a checked threshold failed to parse: ${parsed.error.message}`);
  return parsed.value;
}
