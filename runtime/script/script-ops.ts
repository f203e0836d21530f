/**
 * The host side of the scenario API, per virtual user: http through the same request path as
 * YAML endpoints (IterationRunner.send: auth injection, deadline, retries, metrics), ws through
 * the same session runner as ws:// endpoints, sleep, check, vars, feed and JSONPath. http reaches only the target's origin and `allowed_hosts` (a host name
 * allows every port of it; host:port only that port). A virtual user's requests go one at a time:
 * it owns one exchange, so concurrent calls (Promise.all) are sent in turn.
 *
 * Request names (per-endpoint stats): `name` when given, else `METHOD path` without the query;
 * at most MAX_NAMES distinct names, later ones are counted under OTHER_NAME; check names too.
 */
import { JSONPath } from 'jsonpath-plus';
import type { EndpointPlan } from '../../dsl/plan/endpoint-plan.js';
import type { Plan, ScriptPlan } from '../../dsl/plan/plan.js';
import type { AuthProvider } from '../auth/auth-provider.js';
import { classifyError } from '../failure/error-kind.js';
import type { Feeder } from '../feeder/feeder.js';
import { CompiledRequest } from '../http/compiled-request.js';
import type { Recorder } from '../metrics/recorder.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import type { IterationRunner } from '../worker/iteration.js';
import type { VirtualUser } from '../worker/virtual-user.js';
import { createSessionRunner } from '../ws/ws-session.js';
import type { SandboxOps, Settled } from './sandbox.js';

/** How an operation with no value (sleep) settles. */
const NOTHING: Settled = { json: '' };

/** Distinct request names kept apart in the reports. */
export const MAX_NAMES = 100;
/** Where requests beyond MAX_NAMES names are counted. */
export const OTHER_NAME = '(other)';
/** Longest single sleep(): a script cannot park a worker for longer. */
const MAX_SLEEP_MS = 3_600_000;
/** Compiled requests kept, by their call's arguments (the set starts over when full). */
const MAX_CACHED_REQUESTS = 1000;
/** Longest arguments (JSON text) a compiled request is kept for: large bodies are not. */
const MAX_CACHED_KEY = 2048;

/** What a scripted request asks for (built by the bootstrap). */
interface HttpArgs {
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
  readonly json: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeout: number | undefined;
  readonly name: string | undefined;
}

/** What a scripted WebSocket session asks for. */
interface WsArgs {
  readonly url: string;
  readonly messages: readonly string[];
  readonly interval: number;
  readonly subprotocols: readonly string[];
  readonly timeout: number | undefined;
  readonly name: string | undefined;
}

/** A virtual user as the operations see it. */
export interface ScriptUser {
  readonly vu: VirtualUser;
  /** Intended time of the iteration's permit, given to its first request only. */
  intendedUs: number;
  /** Its http and ws calls not yet settled: they go one at a time (it owns one exchange). */
  pending: number;
  /** The last of them, which the next one waits for. */
  last: Promise<unknown> | undefined;
}

/** What the operations need from their segment. */
export interface ScriptOpsDeps {
  readonly plan: Plan;
  readonly script: ScriptPlan;
  readonly runner: IterationRunner;
  readonly recorder: Recorder;
  /** Authorization of WebSocket handshakes (HTTP requests get theirs in IterationRunner.send). */
  readonly auth: AuthProvider | undefined;
  readonly feeder: Feeder | undefined;
  readonly onFeederExhausted: () => void;
  readonly user: (id: number) => ScriptUser;
  /** Aborted at a hard stop: sleeps end at once. */
  readonly hardStop: AbortSignal;
  /** µs since dispatch start. */
  readonly now: () => number;
}

/** The host operations of one segment. */
export class ScriptOps implements SandboxOps {
  readonly #names = new Map<string, number>();
  readonly #checks = new Set<string>();
  readonly #target: URL | undefined;
  readonly #allowed: ReadonlySet<string>;
  /** Compiled requests by the JSON text of their arguments: a scenario repeats its calls. */
  readonly #requests = new Map<string, CompiledRequest>();

  constructor(private readonly deps: ScriptOpsDeps) {
    this.#target = deps.plan.target === undefined ? undefined : new URL(deps.plan.target);
    this.#allowed = new Set(deps.plan.allowedHosts.map((h) => h.toLowerCase()));
  }

  later(id: number, op: string, json: string): Promise<Settled> {
    if (op === 'sleep') return this.#sleep(JSON.parse(json) as number).then(() => NOTHING);
    if (op !== 'http' && op !== 'ws') return Promise.reject(new Error(`unknown operation ${op}`));
    const user = this.deps.user(id);
    const run = async (): Promise<Settled> => {
      try {
        return op === 'http'
          ? await this.#http(user, json)
          : await this.#ws(user, JSON.parse(json) as WsArgs);
      } finally {
        user.pending--;
      }
    };
    // The common case, no call in flight, starts at once rather than through a promise chain.
    const idle = user.pending === 0;
    user.pending++;
    const next = idle ? run() : user.last!.then(run, run);
    user.last = next;
    return next;
  }

  call(id: number, op: string, args: unknown): unknown {
    const vu = this.deps.user(id).vu;
    switch (op) {
      case 'check': {
        const [name, pass] = args as [string, boolean];
        if (!this.#checks.has(name) && this.#checks.size < MAX_NAMES) this.#checks.add(name);
        this.deps.recorder.recordCheck(this.#checks.has(name) ? name : OTHER_NAME, pass);
        return undefined;
      }
      case 'vars.get':
        return vu.vars.get(args as string);
      case 'vars.set': {
        const [key, value] = args as [string, string];
        vu.vars.set(key, value);
        return undefined;
      }
      case 'feed':
        return this.#feed(vu);
      case 'jsonpath':
        return jsonPath(...(args as [string, string]));
      default:
        throw new Error(`unknown operation ${op}`);
    }
  }

  #feed(vu: VirtualUser): Record<string, string> | null {
    const record = this.deps.feeder?.next();
    if (record === undefined) {
      if (this.deps.feeder !== undefined) this.deps.onFeederExhausted();
      return null;
    }
    vu.vars.merge(record);
    return { ...record };
  }

  #sleep(seconds: number): Promise<void> {
    const ms = Number.isFinite(seconds) ? Math.min(Math.max(0, seconds * 1000), MAX_SLEEP_MS) : 0;
    const signal = this.deps.hardStop;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });
  }

  async #http(user: ScriptUser, json: string): Promise<Settled> {
    const request = this.#compiled(json);
    const { vu } = user;
    const intended = user.intendedUs;
    user.intendedUs = NO_INTENDED_TIME;
    vu.vars.begin();
    const start = this.deps.now();
    await this.deps.runner.send(vu, request, request.endpoint.index, intended);
    const exchange = vu.exchange;
    const rest = {
      headers: headerList(exchange.headers),
      body: exchange.body() ?? '',
      error: exchange.error === undefined ? undefined : classifyError(exchange.error),
      timings: { duration: (this.deps.now() - start) / 1000 },
    };
    return { status: exchange.status, json: JSON.stringify(rest) };
  }

  /** The request a call's arguments (JSON text) describe, compiled once per distinct call. */
  #compiled(json: string): CompiledRequest {
    const known = this.#requests.get(json);
    if (known !== undefined) return known;
    const args = JSON.parse(json) as HttpArgs;
    const url = this.#resolve(args.url);
    const headers = this.deps.script.headers.filter(
      (h) => !Object.keys(args.headers).some((n) => n.toLowerCase() === h.name.toLowerCase()),
    );
    const own = Object.entries(args.headers).map(([name, value]) => ({ name, value: [value] }));
    if (args.json && !own.some((h) => h.name.toLowerCase() === 'content-type'))
      own.push({ name: 'content-type', value: ['application/json'] });
    const name = args.name ?? `${args.method} ${url.pathname}`;
    const index = this.#index(name);
    const request = new CompiledRequest(
      {
        index,
        name,
        protocol: 'http',
        method: args.method,
        origin: url.origin,
        path: [url.pathname + url.search],
        url: args.url,
        headers: [...headers, ...own],
        body: args.body === undefined ? undefined : [args.body],
        extract: [],
        setup: false,
        weight: 1,
        timeoutMs: args.timeout ?? this.deps.plan.timeoutMs,
        ws: undefined,
        needs: [],
      },
      true,
    );
    if (json.length <= MAX_CACHED_KEY) {
      if (this.#requests.size >= MAX_CACHED_REQUESTS) this.#requests.clear();
      this.#requests.set(json, request);
    }
    return request;
  }

  /** One WebSocket session (ws-session.ts), recorded under its name; resolves to its outcome. */
  async #ws(user: ScriptUser, args: WsArgs): Promise<Settled> {
    const url = this.#resolve(args.url, 'ws');
    const name = args.name ?? `WS ${url.pathname}`;
    const index = this.#index(name);
    const endpoint: EndpointPlan = {
      index,
      name,
      protocol: 'ws',
      method: 'GET',
      origin: `${url.protocol}//${url.host}`,
      path: [url.pathname + url.search],
      url: args.url,
      headers: [...this.deps.script.headers],
      body: undefined,
      extract: [],
      setup: false,
      weight: 1,
      timeoutMs: args.timeout ?? this.deps.plan.timeoutMs,
      ws: {
        messages: args.messages.map((text) => ({ kind: 'text', text: [text] })),
        intervalMs: Math.max(0, args.interval),
        subprotocols: args.subprotocols,
      },
      needs: [],
    };
    // The session runner reads endpoints by index: a sparse list holding just this one.
    const endpoints: EndpointPlan[] = [];
    endpoints[index] = endpoint;
    const run = createSessionRunner({
      endpoints,
      recorder: this.deps.recorder,
      now: this.deps.now,
      auth: this.deps.auth,
      insecure: this.deps.plan.insecure,
    })!;
    const intended = user.intendedUs;
    user.intendedUs = NO_INTENDED_TIME;
    user.vu.vars.begin();
    return { json: JSON.stringify(await run(user.vu, index, intended)) };
  }

  /**
   * The absolute URL of a call, refused unless it is the target's host (and port) or allowed.
   * http takes http(s) urls, ws takes ws(s) urls; relative urls are appended to the target (for
   * ws, with its scheme made ws/wss).
   */
  #resolve(url: string, kind: 'http' | 'ws' = 'http'): URL {
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
    if (!absolute && this.#target === undefined)
      throw new Error(`${kind}: relative url "${url}" needs a target`);
    let base = this.#target?.href.replace(/\/+$/, '') ?? '';
    if (kind === 'ws') base = base.replace(/^http/i, 'ws');
    const parsed = new URL(absolute ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`);
    const schemes = kind === 'http' ? ['http:', 'https:'] : ['ws:', 'wss:'];
    if (!schemes.includes(parsed.protocol))
      throw new Error(`${kind}: ${parsed.protocol} urls are not supported`);
    const allowed =
      parsed.host === this.#target?.host ||
      this.#allowed.has(parsed.host.toLowerCase()) ||
      this.#allowed.has(parsed.hostname.toLowerCase());
    if (!allowed)
      throw new Error(
        `${kind}: ${parsed.host} is not the target's host nor in allowed_hosts; nothing was sent`,
      );
    return parsed;
  }

  #index(name: string): number {
    const known = this.#names.get(name);
    if (known !== undefined) return known;
    if (this.#names.size >= MAX_NAMES) return this.#index(OTHER_NAME);
    const index = this.deps.recorder.addEndpoint(name);
    this.#names.set(name, index);
    return index;
  }
}

/** The first value at a JSONPath (eval off; filter and script expressions refused). */
function jsonPath(body: string, path: string): unknown {
  if (path.includes('('))
    throw new Error(`json(): filter and script expressions are refused: ${path}`);
  const json = JSON.parse(body) as unknown;
  const matches = JSONPath<unknown[]>({ path, json: json as object, eval: false, wrap: true });
  return matches[0];
}

/**
 * Raw undici headers as a flat list [name, value, …] with lower-case names; the script's
 * response makes it an object when first read (bootstrap-source.ts).
 */
function headerList(raw: readonly Buffer[] | null): string[] {
  const out: string[] = [];
  if (raw === null) return out;
  for (let i = 0; i + 1 < raw.length; i += 2)
    out.push(raw[i]!.toString('latin1').toLowerCase(), raw[i + 1]!.toString('utf8'));
  return out;
}
