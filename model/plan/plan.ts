/**
 * The Plan: a validated, compiled run, as plain readonly data. It is the only thing the runtime
 * reads (it crosses worker threads and child processes by structured clone).
 */
import type { HttpDebugPlan } from './http-debug-plan.js';
import type { OutputsPlan } from './output-plan.js';
import type { ProxyPlan } from './proxy-plan.js';
import type { HeaderPlan } from './endpoint-plan.js';
import type { ScenarioPlan } from './scenario-plan.js';
import type { ScenarioGraph } from './scenario-graph.js';
import type { SharedData } from './shared-data.js';
import type { StatusSet } from './status-set.js';
import type { Template } from './template.js';
import type { CustomMetric, Tags } from '../metrics/metric-registry.js';
import type { ThresholdSpec } from './threshold-spec.js';
import type { TlsPlan } from './tls-plan.js';

/**
 * A scenario's environment: only the variables the user named outside the scenario (`--env`,
 * `scenario_env`), by name: what its `env` and `__ENV` hold (sandbox/scenario-env.ts).
 */
export type ScenarioEnv = Readonly<Record<string, string>>;

/** Retry settings (spec §7.3), durations in ms. */
export interface RetryPlan {
  readonly maxAttempts: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly jitter: number;
  readonly budget: number;
  readonly minRetriesPerSec: number;
}

/** Authentication of target requests (spec §5). */
export type AuthPlan =
  | {
      readonly type: 'oauth2';
      readonly tokenUrl: string;
      readonly clientId: string;
      readonly clientSecret: string;
      readonly grantType: string;
      readonly scope: string | undefined;
      readonly audience: string | undefined;
      readonly clientAuth: 'body' | 'basic';
      readonly refreshBeforeExpiryMs: number | undefined;
      readonly maxRetries: number;
    }
  | { readonly type: 'bearer'; readonly token: Template }
  | { readonly type: 'basic'; readonly username: Template; readonly password: Template };

/**
 * Feeder records as two flat arrays, so that a file costs about its own size in memory rather than
 * an object and a string per value (a 125 MB CSV took 2.1 GiB as objects): every value's UTF-8
 * bytes one after the other in `bytes`, and in `ends` where each ends (a value starts where the one
 * before it ended). Value f of record r is number r · fields.length + f. Both sit on
 * SharedArrayBuffers, so the Plan reaches every worker thread without a copy.
 */
export interface FeederTable {
  /** Field names, once (CSV header; the union of JSON keys in order of appearance). */
  readonly fields: readonly string[];
  readonly count: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  /**
   * Each value's kind, VALUE_TEXT (0), VALUE_MISSING (the record has no such field: JSON records
   * need not share keys) or VALUE_TYPED (JSON text of a number, boolean, object or array of a JSON
   * record, which a JSON body sends as that type); undefined when every value is text.
   */
  readonly kinds: Uint8Array | undefined;
}

/** A feeder value that is text (a CSV value, a JSON string). */
export const VALUE_TEXT = 0;
/** A field the record does not have. */
export const VALUE_MISSING = 1;
/** A JSON record's non-string value, held as its JSON text. */
export const VALUE_TYPED = 2;

/** Feeder records, read before any traffic. */
export interface FeederPlan {
  readonly file: string;
  readonly order: 'sequential' | 'random' | 'shuffle';
  readonly cycle: boolean;
  /**
   * Which record a worker's requests see: `worker`, one taken before its setup endpoints and kept
   * (a virtual user is one user); `iteration`, a new one each iteration (and one before setup).
   */
  readonly per: 'worker' | 'iteration';
  readonly records: FeederTable;
}

/** A bundled TypeScript scenario file: `code` evaluates to a function of the sandbox API. */
export interface ScriptBundle {
  /** The file as the user named it. */
  readonly file: string;
  readonly code: string;
  /** esbuild's source map (JSON text) of the bundle, one line below `code`'s first. */
  readonly sourceMap: string;
  /** The data files its top level opens, read before any traffic (shared-data.ts). */
  readonly data?: readonly SharedData[];
}

/**
 * A bundled TypeScript scenario, the headers (top-level, User-Agent) its requests send and the
 * statuses that are a success for them (the run's `expect`), unless a request sets its own.
 */
export interface ScriptPlan extends ScriptBundle {
  readonly headers: readonly HeaderPlan[];
  readonly expect: StatusSet | undefined;
  /** The variables the user named for it (`--env`, `scenario_env`): its `env` and `__ENV`. */
  readonly env: ScenarioEnv;
}

/** Which share of a distributed run this process executes (1-based index). */
export interface SegmentRef {
  readonly index: number;
  readonly count: number;
}

/** Report files requested. */
export interface ReportPlan {
  readonly json: string | undefined;
  readonly html: string | undefined;
  readonly junit: string | undefined;
  readonly summaryMd: string | undefined;
  readonly raw: string | undefined;
  /** Tag keys the reports break requests down by (`summary_by`). */
  readonly summaryBy: readonly string[];
}

/** A whole run. */
export interface Plan {
  readonly target: string | undefined;
  /** The deadline of one request. */
  readonly timeoutMs: number;
  /**
   * After the first stop signal, how long in-flight work may take before the reports are written
   * from the figures so far and barrage exits; it bounds a scenario's setup() too.
   */
  readonly stopGraceMs: number;
  readonly graph: ScenarioGraph;
  /**
   * The loads that run: the `scenarios` entries, or the top-level form (concurrency, rate,
   * requests, duration) as the one scenario `default` (scenario-plan.ts, topLevelLoad reads it
   * back).
   */
  readonly scenarios: readonly ScenarioPlan[];
  /** True when the configuration named its scenarios (reports then show each). */
  readonly namedScenarios: boolean;
  readonly thresholds: readonly ThresholdSpec[];
  /** The earlier run's result file relative thresholds read (`baseline:`, `--baseline`). */
  readonly baseline: string | undefined;
  /** Custom metrics, by name: `metrics:`, or a scenario's top-level `new Trend()`… */
  readonly metrics: Readonly<Record<string, CustomMetric>>;
  /** The run's own tags, on every sample (docs/configuration.md, Tags). */
  readonly tags: Tags;
  readonly retry: RetryPlan | undefined;
  readonly auth: AuthPlan | undefined;
  readonly feeder: FeederPlan | undefined;
  readonly script: ScriptPlan | undefined;
  readonly seed: number;
  readonly threads: number | 'auto';
  readonly segment: SegmentRef;
  readonly startAt: number | undefined;
  readonly insecure: boolean;
  /** Forward proxies of target (and token) requests; undefined: every connection is direct. */
  readonly proxy: ProxyPlan | undefined;
  /** The `tls:` files' contents and settings; undefined when not set. */
  readonly tls: TlsPlan | undefined;
  /** Offer h2 by ALPN to https origins (`http2: true`). */
  readonly http2: boolean;
  /** Each virtual user keeps a cookie jar (RFC 6265). */
  readonly cookies: boolean;
  /** Redirects a request follows by default (an endpoint's own max_redirects wins). */
  readonly maxRedirects: number;
  readonly allowedHosts: readonly string[];
  readonly report: ReportPlan;
  /** Live metric outputs and their flush period. */
  readonly outputs: OutputsPlan;
  /** The HTTP debug log (`--http-debug`); absent when it is off. */
  readonly httpDebug?: HttpDebugPlan | undefined;
}
