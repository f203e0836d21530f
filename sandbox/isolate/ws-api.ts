/**
 * The API's `ws`: ws.session() (a scripted session the host runs whole) and ws.connect() (a socket
 * the scenario drives, socket.ts). A connect's promise is a waiting call like any other; its
 * socket's events arrive by its id (bootstrap.ts's EVENT records).
 */
import { stringify, textOf } from './intrinsics.js';
import { ScenarioSocket } from './socket.js';
import {
  groupName,
  hostCall,
  newId,
  postStart,
  room,
  settled,
  tagsOf,
  wait,
  waitFor,
} from './vu-host.js';

/** ws options as the scenario gives them (scenarios/barrage.d.ts). */
interface WsOptions {
  readonly messages?: unknown;
  readonly interval?: unknown;
  readonly subprotocols?: unknown;
  readonly headers?: Readonly<Record<string, unknown>> | null;
  readonly timeout?: unknown;
  readonly name?: unknown;
  readonly tags?: unknown;
}

/** This virtual user's sockets not ended, by their call's id. */
export const sockets = new Map<unknown, ScenarioSocket>();

const optionsOf = (opts: unknown): WsOptions => (opts === undefined || opts === null ? {} : opts);
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(textOf) : []);

const session = async (url: unknown, opts: unknown): Promise<unknown> => {
  const o = optionsOf(opts);
  const result = await wait(
    'ws',
    stringify({
      url: textOf(url),
      messages: list(o.messages),
      interval: typeof o.interval === 'number' ? o.interval : 0,
      subprotocols: list(o.subprotocols),
      timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
      name: o.name === undefined ? undefined : textOf(o.name),
      group: groupName(),
      tags: tagsOf(o.tags),
    }),
  );
  return settled(result);
};

const connected = async (promise: Promise<unknown>, socket: ScenarioSocket) => {
  try {
    const result = settled(await promise) as { headers: object };
    const failure = socket.failure;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the scenario's handler threw
    if (failure !== undefined) throw failure;
    return Object.freeze({ ...result, headers: Object.freeze(result.headers) });
  } finally {
    sockets.delete(socket.id);
  }
};

const openArgs = (url: unknown, o: WsOptions): string => {
  const headers: Record<string, string> = {};
  if (o.headers !== undefined && o.headers !== null)
    for (const [k, v] of Object.entries(o.headers)) headers[textOf(k)] = textOf(v);
  return stringify({
    url: textOf(url),
    headers,
    subprotocols: Array.isArray(o.subprotocols) ? o.subprotocols.map(textOf) : [],
    timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
    name: o.name === undefined ? undefined : textOf(o.name),
    group: groupName(),
    tags: tagsOf(o.tags),
  });
};

const connect = (url: unknown, opts: unknown, handler?: unknown) => {
  room('ws');
  const o = optionsOf(opts);
  const id = newId();
  hostCall('ws.open', [id, openArgs(url, o)]);
  const promise = waitFor(id);
  const socket = new ScenarioSocket(id);
  sockets.set(id, socket);
  postStart(id, 'ws.connect', String(id));
  if (typeof handler === 'function') {
    try {
      (handler as (api: ScenarioSocket['api']) => unknown)(socket.api);
    } catch (error) {
      socket.fail(error);
    }
  }
  return connected(promise, socket);
};

/** The API's `ws`. */
export const ws = Object.freeze({
  session: (url: unknown, opts?: unknown) => {
    room('ws');
    return session(url, opts);
  },
  connect,
});
