/**
 * The host side of the scenario API, per virtual user: http through the same request path as
 * YAML endpoints (request-path.ts: auth injection, deadline, retries, metrics), ws through
 * script-sockets.ts, sleep and timers (script-sleeps.ts), check, custom metrics, vars, feed, cookies, JSONPath and HTML. Where
 * calls may go and the names they are counted under are call-targets.ts's. A virtual user's
 * requests go one at a time: it owns one exchange, so concurrent calls (Promise.all) are sent in
 * turn; http.batch() is one such call, whose requests go out together on lanes of the user
 * (script-batch.ts).
 */
import { MAX_TREND_VALUE } from '../../model/metrics/metric-registry.js';
import type { Plan, ScriptPlan } from '../../model/plan/plan.js';
import type { AuthProvider } from '../auth/auth-provider.js';
import { classifyError } from '../failure/error-kind.js';
import type { Feeder } from '../feeder/feeder.js';
import { CompiledRequest } from '../http/compiled-request.js';
import { MAX_KEPT_BODY } from '../http/response-body.js';
import { isTrendValue } from '../metrics/custom-histogram.js';
import type { Recorder } from '../metrics/recorder.js';
import { MAX_VARIABLE_CHARS, MAX_VARIABLES } from '../vars/variable-store.js';
import type { VirtualUser } from '../user/virtual-user.js';
import { capped, ownTags, redirectsOf, verifyOf } from './call-options.js';
import { CallTargets } from './call-targets.js';
import { HtmlLookup } from './html-lookup.js';
import { ResponseText } from './response-text.js';
import type { SandboxOps, Settle, Settled } from './sandbox.js';
import { sendBatch, type BatchDeps } from './script-batch.js';
import { jsonPath } from './script-json-path.js';
import { expectOf, scriptRequest } from './script-request.js';
import { decodeHttpArgs } from './decode-call-args.js';
import { digestAuthorization } from './digest-auth.js';
import { ScriptSleeps } from './script-sleeps.js';
import { ScriptSockets } from './script-sockets.js';
import type { ScriptUser } from './script-user.js';
import { responseTimings } from './response-timings.js';
import { streamFigures } from './stream-figures.js';
import { MAX_WAITING_CALLS, WAITING_REFUSED } from '../../sandbox/waiting-calls.js';
import { decodeHostCall, isHostOp, type HostCalls } from '../../sandbox/isolate/host-calls.js';

/** Compiled requests kept, by their call's arguments (the set starts over when full). */
const MAX_CACHED_REQUESTS = 1000;
/** Longest arguments (JSON text) a compiled request is kept for: large bodies are not. */
const MAX_CACHED_KEY = 2048;

/** A scenario's add(): the metric's name, the value, the call's tags and its group. */
type MetricArgs = HostCalls['metric'];

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
  /** The scenario called exec.test.abort(reason): the run stops as failed (absent in setup()). */
  readonly abortTest?: (reason: string) => void;
}

/** The host operations of one segment. */
export class ScriptOps implements SandboxOps {
  /** Where calls go, and the names they are counted under. */
  readonly #targets: CallTargets;
  /** ws.session() and ws.connect(). */
  readonly #sockets: ScriptSockets;
  /** Compiled requests by the JSON text of their arguments: a scenario repeats its calls. */
  readonly #requests = new Map<string, CompiledRequest>();
  readonly #text = new ResponseText();
  readonly #html = new HtmlLookup();
  /** sleep() and the timers of setTimeout and setInterval, all virtual users'. */
  readonly #sleeps: ScriptSleeps;
  readonly #wakeAll = (): void => {
    this.#sleeps.wakeAll();
    this.#sockets.cut();
  };

  constructor(private readonly deps: ScriptOpsDeps) {
    this.#targets = new CallTargets(deps.plan, deps.recorders);
    this.#sockets = new ScriptSockets({ ...deps, targets: this.#targets });
    this.#sleeps = new ScriptSleeps(deps.plan, deps.hardStop);
    deps.hardStop.addEventListener('abort', this.#wakeAll);
  }

  later(
    id: number,
    op: string,
    json: string,
    settle: Settle,
    bytes: readonly Uint8Array[] = [],
  ): void {
    const user = this.deps.user(id);
    if (user.sleeping + user.calls.length >= MAX_WAITING_CALLS) {
      settle({ kind: 'refused', message: `${op}: ${WAITING_REFUSED}` });
      return;
    }
    if (op === 'sleep') {
      const seconds: unknown = JSON.parse(json);
      // A duration that was no number (NaN crosses as null) sleeps for none.
      this.#sleeps.wait(user, typeof seconds === 'number' ? seconds * 1000 : NaN, settle);
      return;
    }
    if (op === 'timer') {
      const [key, ms] = JSON.parse(json) as [number, number];
      this.#sleeps.wait(user, ms, settle, key);
      return;
    }
    if (op === 'ws.connect') {
      this.#sockets
        .connect(user, Number(json), settle)
        .catch((error: unknown) => settle(refusal(error)));
      return;
    }
    if (op !== 'http' && op !== 'ws' && op !== 'http.batch') {
      settle({ kind: 'refused', message: `unknown operation ${op}` });
      return;
    }
    user.calls.push({ op, json, settle, bytes });
    if (user.calls.length === 1) this.#begin(user);
  }

  /** Starts the user's first call; a call refused at once settles here. */
  #begin(user: ScriptUser): void {
    const { op, json, bytes } = user.calls[0]!;
    if (op === 'http.batch') {
      this.#batch(user, json, bytes);
      return;
    }
    if (op === 'ws') {
      this.#sockets.session(user, json).then(
        (result) => this.#settled(user, { kind: 'value', json: result }),
        (error: unknown) => this.#settled(user, refusal(error)),
      );
      return;
    }
    let request: CompiledRequest;
    try {
      request = this.#compiled(json, bytes);
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
    if (!isHostOp(op)) throw new Error(`unknown operation ${op}`);
    if (op.startsWith('ws.') && op !== 'ws.open')
      return this.#sockets.call(this.deps.user(id), op, args);
    const vu = this.deps.user(id).vu;
    switch (op) {
      case 'check': {
        const [name, pass, group, tags] = decodeHostCall(op, args);
        this.deps.user(id).lane.recorder.recordCheck(name, pass, ownTags({ group, tags }));
        return undefined;
      }
      case 'metric':
        this.#metric(this.deps.user(id), decodeHostCall(op, args));
        return undefined;
      case 'vars.get':
        return vu.vars.get(decodeHostCall(op, args));
      case 'vars.set': {
        const [key, value, typed] = decodeHostCall(op, args);
        if (!vu.vars.set(key, value, typed)) throw new Error(variablesFull(key));
        return undefined;
      }
      case 'feed':
        return this.#feed(vu);
      case 'jsonpath':
        return jsonPath(...decodeHostCall(op, args));
      case 'cookies.get':
        return vu.cookies.forUrl(this.#targets.resolve(decodeHostCall(op, args)).href);
      case 'cookies.set': {
        const [url, name, value, attributes] = decodeHostCall(op, args);
        vu.cookies.set(this.#targets.resolve(url).href, name, value, attributes);
        return undefined;
      }
      case 'cookies.clear': {
        const which = decodeHostCall(op, args);
        if (which === null) vu.cookies.clear();
        else vu.cookies.remove(this.#targets.resolve(which[0]).href, which[1]);
        return undefined;
      }
      case 'html':
        return this.#html.find(...decodeHostCall(op, args));
      case 'ws.open':
        return this.#sockets.open(this.deps.user(id), ...decodeHostCall(op, args));
      case 'timer.clear':
        this.#sleeps.clear(this.deps.user(id), decodeHostCall(op, args));
        return undefined;
      case 'digest': {
        const [challenge, username, password, method, uri] = decodeHostCall(op, args);
        return digestAuthorization({ challenge, username, password, method, uri });
      }
      case 'exec.info':
        return this.#execInfo(this.deps.user(id));
      case 'exec.abort':
        this.#abortTest(this.deps.user(id), decodeHostCall(op, args));
        return undefined;
      default:
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

  /**
   * k6's exec context of the user's iteration: [scenario, iterationInTest, iterationInScenario];
   * null outside an iteration (setup(), teardown()).
   */
  #execInfo(user: ScriptUser): [string, number, number] | null {
    if (user.lane.scenario === '') return null;
    return [user.lane.scenario, user.iterationInTest, user.vu.iteration - 1];
  }

  /** exec.test.abort(reason): the run stops, failed, with the reason (cut to 500 characters). */
  #abortTest(user: ScriptUser, reason: string): void {
    user.aborted = true;
    const text = reason.length > 500 ? `${reason.slice(0, 500)}…` : reason;
    this.deps.abortTest?.(
      `the scenario aborted the test (exec.test.abort)${text === '' ? '' : `: ${text}`}`,
    );
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
    this.#sockets.stop();
  }

  /** A virtual user's iteration is over: its sockets still open close (1001, going away). */
  endIteration(id: number): void {
    this.#sockets.endIteration(this.deps.user(id));
    this.#sleeps.endIteration(this.deps.user(id));
  }

  /** Ends the operations' timers and their listener: the segment is over. */
  close(): void {
    this.#sockets.cut();
    this.deps.hardStop.removeEventListener('abort', this.#wakeAll);
    this.#sleeps.close();
  }

  /** Sends the user's http call; #responded settles it (a throw on the path, a bug, refuses it). */
  #http(user: ScriptUser, request: CompiledRequest): void {
    const { vu } = user;
    const intended = user.takeIntended();
    vu.vars.begin();
    user.startUs = this.deps.now();
    user.sent ??= () => this.#responded(user);
    user.broken ??= (error) => this.#settled(user, refusal(error));
    user.lane.path.send(vu, request, request.endpoint.index, intended, user.sent, user.broken);
  }

  /**
   * An http.batch(): its requests, one JSON text a line as a single call sends each, compiled (one
   * refused refuses the batch), then sent.
   */
  #batch(user: ScriptUser, lines: string, bytes: readonly Uint8Array[]): void {
    let requests: CompiledRequest[];
    try {
      requests = lines === '' ? [] : lines.split('\n').map((json) => this.#compiled(json, bytes));
    } catch (error) {
      this.#settled(user, refusal(error));
      return;
    }
    sendBatch(user, requests, this.#batchDeps, (settled) => this.#settled(user, settled));
  }

  readonly #batchDeps: BatchDeps = {
    now: () => this.deps.now(),
    response: (lane, startUs) => {
      const { kind: _, ...values } = this.#response(lane, startUs);
      return values;
    },
  };

  /** The response of the user's http call, as it crosses into the isolate. */
  #responded(user: ScriptUser): void {
    this.#settled(user, this.#response(user.vu, user.startUs));
  }

  /** The response a lane's request got, sent at `startUs` (a call's, or one of a batch's). */
  #response(lane: VirtualUser, startUs: number): Extract<Settled, { kind: 'response' }> {
    const exchange = lane.exchange;
    const [events, firstEventMs] = streamFigures(lane);
    const endUs = this.deps.now();
    return {
      kind: 'response',
      status: exchange.status,
      fields: exchange.headers?.length ?? 0,
      text: this.#text.encode(lane.url(), exchange.headers, exchange.kept),
      // As the reports count it: a transport error, a body that failed to decode, or a redirect
      // not followed (url_not_allowed, too_many_redirects).
      error:
        exchange.error === undefined
          ? (exchange.failure ?? lane.redirectKind ?? '')
          : classifyError(exchange.error),
      durationMs: (endUs - startUs) / 1000,
      events,
      firstEventMs,
      ...responseTimings(lane, endUs),
    };
  }

  /**
   * The request a call's arguments (JSON text, and the bytes it names) describe, compiled once per
   * distinct call without bytes: a call with bytes is compiled each time (its text does not say
   * what they are).
   */
  #compiled(json: string, bytes: readonly Uint8Array[]): CompiledRequest {
    const cached = bytes.length === 0;
    const known = cached ? this.#requests.get(json) : undefined;
    if (known !== undefined) return known;
    const args = decodeHttpArgs(json);
    const url = this.#targets.resolve(args.url);
    const name = args.name ?? `${args.method} ${url.pathname}`;
    const tags = { method: args.method, ...ownTags(args) };
    const request = new CompiledRequest(
      scriptRequest(args, url, bytes, {
        index: this.#targets.index(name, tags),
        name,
        tags,
        runHeaders: this.deps.script.headers,
        verify: verifyOf(expectOf(args.expect, this.deps.script.expect)),
        timeoutMs: capped(args.timeout, this.deps.plan.timeoutMs),
        maxRedirects: redirectsOf(args.redirects, this.deps.plan.maxRedirects),
      }),
      MAX_KEPT_BODY,
    );
    if (cached && json.length <= MAX_CACHED_KEY) {
      if (this.#requests.size >= MAX_CACHED_REQUESTS) this.#requests.clear();
      this.#requests.set(json, request);
    }
    return request;
  }
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
