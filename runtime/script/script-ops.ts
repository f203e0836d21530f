/**
 * The host side of the scenario API, per virtual user: http through the same request path as
 * YAML endpoints (request-path.ts: auth injection, deadline, retries, metrics), ws through
 * the same session runner as ws:// endpoints, sleep, check, vars, feed, JSONPath and HTML. http reaches only the target's origin and `allowed_hosts` (a host name
 * allows every port of it; host:port only that port). A virtual user's requests go one at a time:
 * it owns one exchange, so concurrent calls (Promise.all) are sent in turn; http.batch() is one
 * such call, whose requests go out together on lanes of the user (script-batch.ts).
 *
 * Request names (per-endpoint stats): `name` when given, else `METHOD path` without the query;
 * at most MAX_NAMES distinct names, later ones are counted under OTHER_NAME (name-bound.ts; the
 * recorder bounds check names the same way).
 */
import type { VerifyPlan } from '../../dsl/plan/check-plan.js';
import { ResponseText } from './response-text.js';
import { jsonPath } from './script-json-path.js';
import {
  defaultHeaders,
  type EndpointPlan,
  type HeaderPlan,
} from '../../dsl/plan/endpoint-plan.js';
import { messageSteps, type WsStepPlan } from '../../dsl/plan/ws-session-plan.js';
import {
  BUILTIN_TAGS,
  isBuiltinTag,
  MAX_TREND_VALUE,
  TAG_KEY,
  type Tags,
} from '../../dsl/plan/metrics.js';
import { isTrendValue } from '../metrics/custom-histogram.js';
import type { StatusSet } from '../../dsl/plan/status-set.js';
import type { Plan, ScriptPlan } from '../../dsl/plan/plan.js';
import { NO_TOKEN, type AuthProvider } from '../auth/auth-provider.js';
import { classifyError } from '../failure/error-kind.js';
import type { Feeder } from '../feeder/feeder.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { CompiledRequest } from '../http/compiled-request.js';
import { MAX_KEPT_BODY } from '../http/response-body.js';
import { endpointKey } from '../metrics/align-endpoints.js';
import { MAX_NAMES, OTHER_NAME } from '../metrics/name-bound.js';
import type { Recorder } from '../metrics/recorder.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import type { RequestPath } from '../worker/request-path.js';
import { MAX_VARIABLE_CHARS, MAX_VARIABLES } from '../vars/variable-store.js';
import type { VirtualUser } from '../worker/virtual-user.js';
import { CompiledSession } from '../ws/compiled-session.js';
import { createSessionRunner } from '../ws/ws-session.js';
import { WsTransport } from '../ws/ws-transport.js';
import { HtmlLookup } from './html-lookup.js';
import type { SandboxOps, Settle, Settled } from './sandbox.js';
import {
  expectOf,
  requestParts,
  streamPlan,
  withDefault,
  type HttpArgs,
} from './script-request.js';
import { ScriptSocket } from './script-socket.js';
import { streamFigures } from './stream-figures.js';
import { sendBatch, type BatchDeps } from './script-batch.js';
import { MAX_WAITING_CALLS, WAITING_REFUSED } from './waiting-calls.js';

/** How an operation with no value (sleep) settles. */
const NOTHING: Settled = { kind: 'value', json: '' };

/** Longest single sleep(): a script cannot park a worker for longer. */
const MAX_SLEEP_MS = 3_600_000;
/** Compiled requests kept, by their call's arguments (the set starts over when full). */
const MAX_CACHED_REQUESTS = 1000;
/** Longest arguments (JSON text) a compiled request is kept for: large bodies are not. */
const MAX_CACHED_KEY = 2048;

/** What a scripted WebSocket session asks for. */
interface WsArgs {
  readonly url: string;
  readonly messages: readonly string[];
  readonly interval: number;
  readonly subprotocols: readonly string[];
  readonly timeout: number | undefined;
  readonly name: string | undefined;
  readonly group: string | undefined;
  readonly tags: Readonly<Record<string, string>> | undefined;
}

/** What a scenario's ws.connect() asks for. */
interface ConnectArgs {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly subprotocols: readonly string[];
  readonly timeout: number | undefined;
  readonly name: string | undefined;
  readonly group: string | undefined;
  readonly tags: Readonly<Record<string, string>> | undefined;
}

/** A scenario's add(): the metric's name, the value, the call's tags and its group. */
type MetricArgs = [
  string,
  number,
  Readonly<Record<string, string>> | undefined,
  string | undefined,
];

/** Sockets of ws.connect() a virtual user may have open at once. */
export const MAX_SOCKETS_PER_USER = 16;

/** A ws.connect() socket of a virtual user, and the endpoint its handshake is built from. */
interface UserSocket {
  readonly socket: ScriptSocket;
  readonly endpoint: EndpointPlan;
}

/** An http or ws call of a virtual user, waiting for its turn or in flight. */
interface Call {
  readonly op: 'http' | 'ws' | 'http.batch';
  readonly json: string;
  readonly settle: Settle;
}

/** A sleep() in progress. */
interface Sleep {
  readonly user: ScriptUser;
  readonly settle: Settle;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The scenario a scripted virtual user runs for (docs/configuration.md, Scenarios): its request
 * path and metrics shard, and the exported function its iterations call ('' for the default).
 */
export interface Lane {
  readonly path: RequestPath;
  readonly recorder: Recorder;
  readonly exec: string;
}

/** A virtual user as the operations see it. */
export class ScriptUser {
  /** Intended time of the iteration's permit, given to its first request only. */
  intendedUs = NO_INTENDED_TIME;
  /** Its http and ws calls: they go one at a time (it owns one exchange); the first is in flight. */
  readonly calls: Call[] = [];
  /** Its sleeps in progress. */
  sleeping = 0;
  /** Its ws.connect() sockets, by the call's id. */
  readonly sockets = new Map<number, UserSocket>();
  /** When its http call in flight began, µs since dispatch start. */
  startUs = 0;
  /** The end of its http call in flight, and a throw on its path (a bug), bound once. */
  sent: (() => void) | undefined;
  broken: ((error: unknown) => void) | undefined;

  constructor(
    readonly vu: VirtualUser,
    readonly lane: Lane,
  ) {}
}

/** What the operations need from their segment. */
export interface ScriptOpsDeps {
  readonly plan: Plan;
  readonly script: ScriptPlan;
  /**
   * Every metrics shard of the segment: a request name discovered while running is added to all
   * of them, so that their endpoint lists stay the same and merge.
   */
  readonly recorders: readonly Recorder[];
  /** Authorization of WebSocket handshakes (HTTP requests get theirs on the request path). */
  readonly auth: AuthProvider | undefined;
  readonly feeder: Feeder | undefined;
  readonly onFeederExhausted: () => void;
  readonly user: (id: number) => ScriptUser;
  /** Aborted at a hard stop: sleeps end at once (close() removes its one listener). */
  readonly hardStop: AbortSignal;
  /** µs since dispatch start. */
  readonly now: () => number;
}

/** The host operations of one segment. */
export class ScriptOps implements SandboxOps {
  readonly #names = new Map<string, number>();
  /** Names counted under OTHER_NAME, kept up to MAX_FOLDED_NAMES to count them for the warning. */
  readonly #folded = new Set<string>();
  readonly #target: URL | undefined;
  readonly #hosts: AllowedHosts;
  /** How ws.session() and ws.connect() connections open (TLS settings, proxies). */
  readonly #wsTransport: WsTransport;
  /** Compiled requests by the JSON text of their arguments: a scenario repeats its calls. */
  readonly #requests = new Map<string, CompiledRequest>();
  readonly #text = new ResponseText();
  readonly #html = new HtmlLookup();
  /**
   * Sleeps in progress, all virtual users': a hard stop ends them with one listener (an
   * AbortSignal's listeners cost O(n) each to add and remove: 200,000 of them held a segment for
   * minutes), and close() clears their timers.
   */
  readonly #sleeps = new Set<Sleep>();
  /** Every ws.connect() socket not ended, all virtual users'. */
  readonly #sockets = new Set<ScriptSocket>();
  readonly #wakeAll = (): void => {
    for (const sleep of this.#sleeps) this.#woke(sleep);
    for (const socket of this.#sockets) socket.cut();
  };
  readonly #woke = (sleep: Sleep): void => {
    clearTimeout(sleep.timer);
    this.#sleeps.delete(sleep);
    sleep.user.sleeping--;
    sleep.settle(NOTHING);
  };

  constructor(private readonly deps: ScriptOpsDeps) {
    this.#target = deps.plan.target === undefined ? undefined : new URL(deps.plan.target);
    this.#hosts = AllowedHosts.of(deps.plan);
    const { insecure, tls, proxy, timeoutMs } = deps.plan;
    this.#wsTransport = new WsTransport({ insecure, tls, proxy, timeoutMs });
    deps.hardStop.addEventListener('abort', this.#wakeAll);
  }

  later(id: number, op: string, json: string, settle: Settle): void {
    const user = this.deps.user(id);
    if (user.sleeping + user.calls.length >= MAX_WAITING_CALLS) {
      settle({ kind: 'refused', message: `${op}: ${WAITING_REFUSED}` });
      return;
    }
    if (op === 'sleep') {
      this.#sleep(user, JSON.parse(json) as number, settle);
      return;
    }
    if (op === 'ws.connect') {
      this.#connect(user, Number(json), settle).catch((error: unknown) => settle(refusal(error)));
      return;
    }
    if (op !== 'http' && op !== 'ws' && op !== 'http.batch') {
      settle({ kind: 'refused', message: `unknown operation ${op}` });
      return;
    }
    user.calls.push({ op, json, settle });
    if (user.calls.length === 1) this.#begin(user);
  }

  /** Starts the user's first call; a call refused at once settles here. */
  #begin(user: ScriptUser): void {
    const { op, json } = user.calls[0]!;
    if (op === 'http.batch') {
      this.#batch(user, json);
      return;
    }
    if (op === 'ws') {
      this.#ws(user, json).then(
        (result) => this.#settled(user, { kind: 'value', json: result }),
        (error: unknown) => this.#settled(user, refusal(error)),
      );
      return;
    }
    let request: CompiledRequest;
    try {
      request = this.#compiled(json);
    } catch (error) {
      this.#settled(user, refusal(error));
      return;
    }
    this.#http(user, request);
  }

  /** The user's call in flight settled: its caller learns how, and the next call starts. */
  #settled(user: ScriptUser, settled: Settled): void {
    const call = user.calls.shift()!;
    call.settle(settled);
    if (user.calls.length > 0) this.#begin(user);
  }

  call(id: number, op: string, args: unknown): unknown {
    const vu = this.deps.user(id).vu;
    switch (op) {
      case 'check': {
        const [name, pass, group, tags] = args as [
          string,
          boolean,
          string | undefined,
          Record<string, string> | undefined,
        ];
        this.deps.user(id).lane.recorder.recordCheck(name, pass, ownTags({ group, tags }));
        return undefined;
      }
      case 'metric':
        this.#metric(this.deps.user(id), args as MetricArgs);
        return undefined;
      case 'vars.get':
        return vu.vars.get(args as string);
      case 'vars.set': {
        const [key, value, typed] = args as [string, string, boolean];
        if (!vu.vars.set(key, value, typed)) throw new Error(variablesFull(key));
        return undefined;
      }
      case 'feed':
        return this.#feed(vu);
      case 'jsonpath':
        return jsonPath(...(args as [string, string]));
      case 'cookies.get':
        return vu.cookies.forUrl(this.#resolve(args as string).href);
      case 'cookies.set': {
        const [url, name, value] = args as [string, string, string];
        vu.cookies.set(this.#resolve(url).href, name, value);
        return undefined;
      }
      case 'cookies.clear':
        vu.cookies.clear();
        return undefined;
      case 'html':
        return this.#html.find(...(args as [string, string]));
      case 'ws.open':
        return this.#open(this.deps.user(id), ...(args as [number, string]));
      default:
        if (op.startsWith('ws.'))
          return this.#socketCall(this.deps.user(id), op, args as unknown[]);
        throw new Error(`unknown operation ${op}`);
    }
  }

  /**
   * A sample of a custom metric (a scenario's add()): the metric must be declared (the plan has
   * what the scenario's top level declared), the value a number its kind takes; its tags are the
   * call's and its group, its scenario the lane's recorder's.
   */
  #metric(user: ScriptUser, [name, value, tags, group]: MetricArgs): void {
    const metric = Object.hasOwn(this.deps.plan.metrics, name)
      ? this.deps.plan.metrics[name]
      : undefined;
    if (metric === undefined)
      throw new Error(
        `${name} is not a declared metric: declare it at the top level of the scenario`,
      );
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new Error(`${name}.add(): the value must be a finite number`);
    if (metric.kind === 'trend' && !isTrendValue(value))
      throw new Error(`${name}.add(${value}): a trend value must be from 0 to ${MAX_TREND_VALUE}`);
    const own = ownTags({ group, tags });
    user.lane.recorder.recordCustom(name, metric.kind, value, own, this.deps.now());
  }

  #feed(vu: VirtualUser): Record<string, string> | null {
    const record = this.deps.feeder?.next();
    if (record === undefined) {
      if (this.deps.feeder !== undefined) this.deps.onFeederExhausted();
      return null;
    }
    vu.vars.merge(record);
    // fromEntries defines own properties: a field named "__proto__" stays a plain key.
    return Object.fromEntries(
      record.fields.flatMap((field, f) => {
        const value = record.values[f];
        return value === undefined ? [] : [[field, value]];
      }),
    );
  }

  /** The run's time is up: every ws.connect() socket closes (1000). */
  stop(): void {
    for (const socket of this.#sockets) socket.close(1000, '');
  }

  /** A virtual user's iteration is over: its sockets still open close (1001, going away). */
  endIteration(id: number): void {
    for (const { socket } of this.deps.user(id).sockets.values()) socket.close(1001, '');
  }

  /** Ends the operations' timers and their listener: the segment is over. */
  close(): void {
    for (const socket of this.#sockets) socket.cut();
    this.deps.hardStop.removeEventListener('abort', this.#wakeAll);
    for (const sleep of this.#sleeps) clearTimeout(sleep.timer);
    this.#sleeps.clear();
  }

  #sleep(user: ScriptUser, seconds: number, settle: Settle): void {
    const ms = Number.isFinite(seconds) ? Math.min(Math.max(0, seconds * 1000), MAX_SLEEP_MS) : 0;
    if (this.deps.hardStop.aborted) {
      settle(NOTHING);
      return;
    }
    const sleep: Sleep = { user, settle, timer: undefined };
    sleep.timer = setTimeout(this.#woke, ms, sleep);
    this.#sleeps.add(sleep);
    user.sleeping++;
  }

  /** Sends the user's http call; #responded settles it (a throw on the path, a bug, refuses it). */
  #http(user: ScriptUser, request: CompiledRequest): void {
    const { vu } = user;
    const intended = user.intendedUs;
    user.intendedUs = NO_INTENDED_TIME;
    vu.vars.begin();
    user.startUs = this.deps.now();
    user.sent ??= () => this.#responded(user);
    user.broken ??= (error) => this.#settled(user, refusal(error));
    user.lane.path.send(vu, request, request.endpoint.index, intended, user.sent, user.broken);
  }

  /** An http.batch(): its requests compiled (one refused refuses the batch), then sent. */
  #batch(user: ScriptUser, json: string): void {
    let requests: CompiledRequest[];
    try {
      requests = (JSON.parse(json) as unknown[]).map((args) =>
        this.#compiled(JSON.stringify(args)),
      );
    } catch (error) {
      this.#settled(user, refusal(error));
      return;
    }
    sendBatch(user, requests, this.#batchDeps, (settled) => this.#settled(user, settled));
  }

  readonly #batchDeps: BatchDeps = {
    now: () => this.deps.now(),
    response: (lane, startUs) => {
      const exchange = lane.exchange;
      return [
        exchange.status,
        exchange.headers?.length ?? 0,
        this.#text.encode(lane.url(), exchange.headers, exchange.kept),
        exchange.error === undefined ? '' : classifyError(exchange.error),
        (this.deps.now() - startUs) / 1000,
        ...streamFigures(lane),
      ];
    },
  };

  /** The response of the user's http call, as it crosses into the isolate. */
  #responded(user: ScriptUser): void {
    const exchange = user.vu.exchange;
    const [events, firstEventMs] = streamFigures(user.vu);
    this.#settled(user, {
      kind: 'response',
      status: exchange.status,
      fields: exchange.headers?.length ?? 0,
      text: this.#text.encode(user.vu.url(), exchange.headers, exchange.kept),
      error: exchange.error === undefined ? '' : classifyError(exchange.error),
      durationMs: (this.deps.now() - user.startUs) / 1000,
      events,
      firstEventMs,
    });
  }

  /** The request a call's arguments (JSON text) describe, compiled once per distinct call. */
  #compiled(json: string): CompiledRequest {
    const known = this.#requests.get(json);
    if (known !== undefined) return known;
    const args = JSON.parse(json) as HttpArgs;
    const url = this.#resolve(args.url);
    const { path, headers, body } = requestParts(args, url, this.deps.script.headers);
    const name = args.name ?? `${args.method} ${url.pathname}`;
    const tags = { method: args.method, ...ownTags(args) };
    const index = this.#index(name, tags);
    const request = new CompiledRequest(
      {
        index,
        name,
        protocol: 'http',
        method: args.method,
        origin: url.origin,
        path: [path],
        query: undefined,
        urlFromVariable: undefined,
        url: args.url,
        headers,
        body,
        extract: [],
        metrics: [],
        verify: verifyOf(expectOf(args.expect, this.deps.script.expect)),
        setup: false,
        weight: 1,
        timeoutMs: capped(args.timeout, this.deps.plan.timeoutMs),
        stream: streamPlan(args),
        maxRedirects: redirectsOf(args.redirects, this.deps.plan.maxRedirects),
        think: undefined,
        ws: undefined,
        needs: [],
        tags,
      },
      MAX_KEPT_BODY,
    );
    if (json.length <= MAX_CACHED_KEY) {
      if (this.#requests.size >= MAX_CACHED_REQUESTS) this.#requests.clear();
      this.#requests.set(json, request);
    }
    return request;
  }

  /** One WebSocket session (ws-session.ts), recorded under its name; resolves to its outcome. */
  async #ws(user: ScriptUser, json: string): Promise<string> {
    const args = JSON.parse(json) as WsArgs;
    const timeoutMs = capped(args.timeout, this.deps.plan.timeoutMs);
    const steps = messageSteps(
      args.messages.map((text) => ({ kind: 'text', text: [text] })),
      Math.max(0, args.interval),
      timeoutMs,
    );
    const endpoint = this.#wsEndpoint({ ...args, headers: {} }, steps);
    const index = endpoint.index;
    // The session runner reads endpoints by index: a sparse list holding just this one.
    const endpoints: EndpointPlan[] = [];
    endpoints[index] = endpoint;
    const run = createSessionRunner({
      endpoints,
      recorder: user.lane.recorder,
      now: this.deps.now,
      auth: this.deps.auth,
      transport: this.#wsTransport,
    })!;
    const intended = user.intendedUs;
    user.intendedUs = NO_INTENDED_TIME;
    user.vu.vars.begin();
    return JSON.stringify(await run.run(user.vu, index, intended));
  }

  /** ws.connect() begins: the socket is made (its timers may start), not yet connected. */
  #open(user: ScriptUser, id: number, json: string): undefined {
    if (user.sockets.size >= MAX_SOCKETS_PER_USER)
      throw new Error(`ws.connect(): at most ${MAX_SOCKETS_PER_USER} sockets open at once`);
    const args = JSON.parse(json) as ConnectArgs;
    const endpoint = this.#wsEndpoint(args, []);
    const socket = new ScriptSocket({
      recorder: user.lane.recorder,
      now: this.deps.now,
      transport: this.#wsTransport,
      index: endpoint.index,
      name: endpoint.name,
      timeoutMs: endpoint.timeoutMs,
      subprotocols: args.subprotocols,
    });
    user.sockets.set(id, { socket, endpoint });
    this.#sockets.add(socket);
    return undefined;
  }

  /** Connects socket `id` and runs it to its end; its events and then its result settle. */
  async #connect(user: ScriptUser, id: number, settle: Settle): Promise<void> {
    const entry = user.sockets.get(id);
    if (entry === undefined) throw new Error('ws.connect(): unknown socket');
    const { socket, endpoint } = entry;
    try {
      const auth = this.deps.auth;
      const own = endpoint.headers.some((h) => h.name.toLowerCase() === 'authorization');
      const value =
        auth === undefined || own ? undefined : auth.authorization(user.vu.vars, user.vu.random);
      const authorization = typeof value === 'object' ? await value : value;
      const target = new CompiledSession(endpoint).target(
        user.vu.vars,
        user.vu.random,
        authorization === NO_TOKEN ? undefined : authorization,
      );
      if (target === undefined) throw new Error('ws.connect(): a header has no value');
      socket.attach((type, payload) => settle({ kind: 'event', type, payload }));
      const result = await socket.run(target);
      settle({
        kind: 'value',
        json: JSON.stringify(result ?? { ok: false, status: 0, error: 'aborted', headers: {} }),
      });
    } finally {
      user.sockets.delete(id);
      this.#sockets.delete(socket);
    }
  }

  /** A call of a socket's method: send, close, timers, a wait's take or timeout. */
  #socketCall(user: ScriptUser, op: string, args: unknown[]): unknown {
    const socket = user.sockets.get(args[0] as number)?.socket;
    if (socket === undefined) return op === 'ws.send' ? [0, 0] : undefined;
    switch (op) {
      case 'ws.send':
        return socket.send(args[1] as string | ArrayBuffer);
      case 'ws.close':
        socket.close(args[1] as number, args[2] as string);
        return undefined;
      case 'ws.timer':
        socket.timer(args[1] as number, args[2] as number, args[3] as boolean);
        return undefined;
      case 'ws.clearTimer':
        socket.clearTimer(args[1] as number);
        return undefined;
      case 'ws.taken':
        socket.taken(args[1] as number, args[2] as number);
        return undefined;
      case 'ws.timedOut':
        socket.timedOut(args[1] as string);
        return undefined;
      default:
        throw new Error(`unknown operation ${op}`);
    }
  }

  /**
   * The endpoint of a scripted WebSocket session: its url resolved and allowed, its name's index,
   * the run's headers then the call's own, its timeout capped by the run's.
   */
  #wsEndpoint(
    args: Omit<ConnectArgs, 'headers'> & Partial<ConnectArgs>,
    steps: WsStepPlan[],
  ): EndpointPlan {
    const url = this.#resolve(args.url, 'ws');
    const name = args.name ?? `WS ${url.pathname}`;
    const own = Object.entries(args.headers ?? {});
    const tags = ownTags(args);
    return {
      index: this.#index(name, tags),
      name,
      protocol: 'ws',
      method: 'GET',
      origin: `${url.protocol}//${url.host}`,
      path: [url.pathname + url.search],
      query: undefined,
      urlFromVariable: undefined,
      url: args.url,
      headers: wsHeaders(this.deps.script.headers, own),
      body: undefined,
      extract: [],
      metrics: [],
      verify: undefined,
      setup: false,
      weight: 1,
      timeoutMs: capped(args.timeout, this.deps.plan.timeoutMs),
      stream: undefined,
      maxRedirects: 0,
      think: undefined,
      ws: { steps, subprotocols: args.subprotocols },
      needs: [],
      tags,
    };
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
    if (!this.#hosts.allows(parsed))
      throw new Error(
        `${kind}: ${parsed.host} is not the target's host nor in allowed_hosts; nothing was sent`,
      );
    return parsed;
  }

  /**
   * The endpoint index of a name and its own tags: one per distinct pair, MAX_NAMES at most; later
   * ones are counted under OTHER_NAME, untagged (docs/scenarios.md, Tags).
   */
  /** A name (and tags) counted under OTHER_NAME: the reports warn how many there were. */
  #fold(key: string): void {
    if (this.#folded.has(key) || this.#folded.size >= MAX_FOLDED_NAMES) return;
    this.#folded.add(key);
    for (const recorder of this.deps.recorders) recorder.recordFoldedNames(this.#folded.size);
  }

  #index(name: string, tags: Tags): number {
    const key = endpointKey(name, tags);
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    // OTHER_NAME itself is the one name past the bound (else the call below would never end).
    if (this.#names.size >= MAX_NAMES && name !== OTHER_NAME) {
      this.#fold(key);
      return this.#index(OTHER_NAME, {});
    }
    let index = -1;
    for (const recorder of this.deps.recorders) index = recorder.addEndpoint(name, tags);
    this.#names.set(key, index);
    return index;
  }
}

/** Distinct folded names counted for the reports' warning (a bound on the set that counts them). */
const MAX_FOLDED_NAMES = 10_000;

/**
 * A call's own tags: its group (`group()` names, joined by " › ") and its `tags` option, whose
 * keys may not be barrage's own tags (a scenario's error, where the call is made).
 */
function ownTags(args: {
  readonly group: string | undefined;
  readonly tags: Readonly<Record<string, string>> | undefined;
}): Tags {
  const tags: Record<string, string> = {};
  if (args.group !== undefined) tags.group = args.group;
  for (const [key, value] of Object.entries(args.tags ?? {})) {
    if (!TAG_KEY.test(key) || isBuiltinTag(key))
      throw new Error(
        `tags: "${key}" is not a tag key of yours (a letter or _, then letters, digits, _ . -; not one of barrage's own: ${BUILTIN_TAGS.join(', ')})`,
      );
    tags[key] = value;
  }
  return tags;
}

/**
 * A call's `timeout` option: the run's `timeout` bounds it (the scenario may shorten it, never
 * lengthen it); absent, not positive or not a number, the run's.
 */
function capped(givenMs: number | undefined, runMs: number): number {
  return givenMs !== undefined && givenMs > 0 ? Math.min(givenMs, runMs) : runMs;
}

/** A ws call's handshake headers: the run's, then its own, then a buffered request's defaults. */
function wsHeaders(run: readonly HeaderPlan[], own: [string, string][]): HeaderPlan[] {
  const ownNames = new Set(own.map(([n]) => n.toLowerCase()));
  const headers = [
    ...run.filter((h) => !ownNames.has(h.name.toLowerCase())),
    ...own.map(([name, value]) => ({ name, value: [value] })),
  ];
  for (const [name, value] of defaultHeaders(undefined)) withDefault(headers, name, value);
  return headers;
}

/** A scripted request's verification: its expected statuses, if any (checks are check()'s). */
function verifyOf(expect: StatusSet | undefined): VerifyPlan | undefined {
  return expect === undefined ? undefined : { expect, checks: [], checksFailRequest: false };
}

/** A call's `redirects` option (an integer ≥ 0), else the run's max_redirects. */
function redirectsOf(given: number | undefined, runDefault: number): number {
  return given !== undefined && Number.isSafeInteger(given) && given >= 0 ? given : runDefault;
}

/** Why vars.set refused a value (never the value: it may be a secret). */
function variablesFull(key: string): string {
  const name = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return `vars.set("${name}"): refused, the virtual user's variables would pass their bounds (${MAX_VARIABLES} variables, ${MAX_VARIABLE_CHARS} characters of keys and values); nothing was stored`;
}

/** A refusal the script sees: the call throws with this message. */
function refusal(error: unknown): Settled {
  return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
}
