/**
 * A scenario's WebSockets, through the same session runner and socket as ws:// endpoints
 * (ws-session.ts, script-socket.ts) and the run's connection settings (ws-transport.ts: TLS,
 * proxies): `ws.session()` runs one scripted session to its end; `ws.connect()` opens a socket
 * whose events reach the scenario until it closes. A virtual user has at most
 * MAX_SOCKETS_PER_USER sockets open; its iteration's end closes them (1001), the run's end too
 * (1001, their sessions counted interrupted), and a hard stop cuts them.
 */
import {
  defaultHeaders,
  type EndpointPlan,
  type HeaderPlan,
} from '../../model/plan/endpoint-plan.js';
import type { Plan, ScriptPlan } from '../../model/plan/plan.js';
import { messageSteps, type WsStepPlan } from '../../model/plan/ws-session-plan.js';
import { NO_TOKEN, type AuthProvider } from '../auth/auth-provider.js';
import { CompiledSession } from '../ws/compiled-session.js';
import { createSessionRunner } from '../ws/ws-session.js';
import { WsTransport } from '../ws/ws-transport.js';
import { capped, ownTags } from './call-options.js';
import type { CallTargets } from './call-targets.js';
import type { Settle } from './sandbox.js';
import { withDefault } from './script-request.js';
import { ScriptSocket } from './script-socket.js';
import type { ScriptUser } from './script-user.js';
import { longestWaitMs } from '../../sandbox/waiting-calls.js';
import { decodeHostCall, type HostOp } from '../../sandbox/isolate/host-calls.js';
import { decodeConnectArgs, decodeWsArgs } from './decode-call-args.js';

/** Sockets of ws.connect() a virtual user may have open at once. */
export const MAX_SOCKETS_PER_USER = 16;

/** What a scripted WebSocket session asks for. */
export interface WsArgs {
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
export interface ConnectArgs {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly subprotocols: readonly string[];
  readonly timeout: number | undefined;
  readonly name: string | undefined;
  readonly group: string | undefined;
  readonly tags: Readonly<Record<string, string>> | undefined;
}

/** What the sockets need from their segment. */
export interface ScriptSocketsDeps {
  readonly plan: Plan;
  readonly script: ScriptPlan;
  /** Authorization of WebSocket handshakes (HTTP requests get theirs on the request path). */
  readonly auth: AuthProvider | undefined;
  readonly targets: CallTargets;
  /** µs since dispatch start. */
  readonly now: () => number;
}

/** The WebSockets of one segment's scripted virtual users. */
export class ScriptSockets {
  /** How ws.session() and ws.connect() connections open (TLS settings, proxies). */
  readonly #transport: WsTransport;
  /** Every ws.connect() socket not ended, all virtual users'. */
  readonly #open = new Set<ScriptSocket>();

  constructor(private readonly deps: ScriptSocketsDeps) {
    const { insecure, tls, proxy, timeoutMs } = deps.plan;
    this.#transport = new WsTransport({ insecure, tls, proxy, timeoutMs });
  }

  /** One WebSocket session (ws-session.ts), recorded under its name; resolves to its outcome. */
  async session(user: ScriptUser, json: string): Promise<string> {
    const args = decodeWsArgs(json);
    const timeoutMs = capped(args.timeout, this.deps.plan.timeoutMs);
    const steps = messageSteps(
      args.messages.map((text) => ({ kind: 'text', text: [text] })),
      Math.min(Math.max(0, args.interval), longestWaitMs(this.deps.plan)),
      timeoutMs,
    );
    const endpoint = this.#endpoint({ ...args, headers: {} }, steps);
    const index = endpoint.index;
    // The session runner reads endpoints by index: a sparse list holding just this one.
    const endpoints: EndpointPlan[] = [];
    endpoints[index] = endpoint;
    const run = createSessionRunner({
      endpoints,
      recorder: user.lane.recorder,
      now: this.deps.now,
      auth: this.deps.auth,
      transport: this.#transport,
    })!;
    const intended = user.takeIntended();
    user.vu.vars.begin();
    return JSON.stringify(await run.run(user.vu, index, intended));
  }

  /** ws.connect() begins: the socket is made (its timers may start), not yet connected. */
  open(user: ScriptUser, id: number, json: string): undefined {
    if (user.sockets.size >= MAX_SOCKETS_PER_USER)
      throw new Error(`ws.connect(): at most ${MAX_SOCKETS_PER_USER} sockets open at once`);
    const args = decodeConnectArgs(json);
    const endpoint = this.#endpoint(args, []);
    const socket = new ScriptSocket({
      recorder: user.lane.recorder,
      now: this.deps.now,
      transport: this.#transport,
      index: endpoint.index,
      name: endpoint.name,
      timeoutMs: endpoint.timeoutMs,
      longestWaitMs: longestWaitMs(this.deps.plan),
      subprotocols: args.subprotocols,
    });
    user.sockets.set(id, { socket, endpoint });
    this.#open.add(socket);
    return undefined;
  }

  /** Connects socket `id` and runs it to its end; its events and then its result settle. */
  async connect(user: ScriptUser, id: number, settle: Settle): Promise<void> {
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
      this.#open.delete(socket);
    }
  }

  /** A call of a socket's method: send, close, timers, a wait's take or timeout. */
  call(user: ScriptUser, op: HostOp, args: unknown): unknown {
    switch (op) {
      case 'ws.send': {
        const [id, data] = decodeHostCall(op, args);
        return this.#socket(user, id)?.send(data) ?? [0, 0];
      }
      case 'ws.close': {
        const [id, code, reason] = decodeHostCall(op, args);
        this.#socket(user, id)?.close(code, reason);
        return undefined;
      }
      case 'ws.timer': {
        const [id, timer, ms, repeat] = decodeHostCall(op, args);
        this.#socket(user, id)?.timer(timer, ms, repeat);
        return undefined;
      }
      case 'ws.clearTimer': {
        const [id, timer] = decodeHostCall(op, args);
        this.#socket(user, id)?.clearTimer(timer);
        return undefined;
      }
      case 'ws.taken': {
        const [id, mark, seq] = decodeHostCall(op, args);
        this.#socket(user, id)?.taken(mark, seq);
        return undefined;
      }
      case 'ws.timedOut': {
        const [id, what] = decodeHostCall(op, args);
        this.#socket(user, id)?.timedOut(what);
        return undefined;
      }
      default:
        throw new Error(`unknown operation ${op}`);
    }
  }

  /** The user's socket `id`; undefined once it is gone. */
  #socket(user: ScriptUser, id: number): ScriptSocket | undefined {
    return user.sockets.get(id)?.socket;
  }

  /** The run's time is up (or it is stopped): every socket closes, its session interrupted. */
  stop(): void {
    for (const socket of this.#open) socket.interrupt();
  }

  /** A virtual user's iteration is over: its sockets still open close (1001, going away). */
  endIteration(user: ScriptUser): void {
    for (const { socket } of user.sockets.values()) socket.close(1001, '');
  }

  /** A hard stop, or the segment's end: every socket is cut at once. */
  cut(): void {
    for (const socket of this.#open) socket.cut();
  }

  /**
   * The endpoint of a scripted WebSocket session: its url resolved and allowed, its name's index,
   * the run's headers then the call's own, its timeout capped by the run's.
   */
  #endpoint(
    args: Omit<ConnectArgs, 'headers'> & Partial<ConnectArgs>,
    steps: WsStepPlan[],
  ): EndpointPlan {
    const url = this.deps.targets.resolve(args.url, 'ws');
    const name = args.name ?? `WS ${url.pathname}`;
    const own = Object.entries(args.headers ?? {});
    const tags = ownTags(args);
    return {
      index: this.deps.targets.index(name, tags),
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
      llm: undefined,
      maxRedirects: 0,
      think: undefined,
      ws: { steps, subprotocols: args.subprotocols },
      needs: [],
      tags,
    };
  }
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
