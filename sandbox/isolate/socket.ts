/**
 * A socket of ws.connect() in the isolate (the host's side: runtime/script/script-socket.ts). Its
 * events come in order as EVENT records (a frame: its seq, its text or an ArrayBuffer; or 'open',
 * 'close' (its code), 'error' (its kind), 'timer' (a timer's id)); its methods are host calls
 * (send, close, timers) answered at once. A handler that throws fails the socket: it is closed
 * with 1011 and connect() rejects with that error.
 */
import type { Socket, WsData } from 'barrage';
import { textOf } from './intrinsics.js';
import { hostCall } from './vu-host.js';

const SOCKET_EVENTS = ['open', 'message', 'binaryMessage', 'close', 'error'] as const;
type SocketEvent = (typeof SOCKET_EVENTS)[number];
type Handler = (...args: unknown[]) => unknown;
/** What selects the frame a receive() or request() waits for. */
type Match = (data: WsData) => unknown;

/** What a receive() or request() waits for. */
interface Waiter {
  readonly after: number;
  readonly match: Match | undefined;
  readonly mark: number;
  readonly resolve: (data: WsData | undefined) => void;
  timer: number;
}

const bytesOf = (data: unknown): ArrayBuffer => {
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data))
    return (data.buffer as ArrayBuffer).slice(data.byteOffset, data.byteOffset + data.byteLength);
  throw new TypeError('sendBinary(): an ArrayBuffer or a typed array');
};

const timeoutOf = (opts: unknown): number => {
  const timeout = (opts as { timeout?: unknown } | null | undefined)?.timeout;
  return typeof timeout === 'number' ? timeout : -1;
};

export class ScenarioSocket {
  readonly #handlers: Record<SocketEvent, Handler[]> = {
    open: [],
    message: [],
    binaryMessage: [],
    close: [],
    error: [],
  };
  readonly #timers = new Map<unknown, { fn: Handler; repeat: boolean }>();
  readonly #waiters = new Set<Waiter>();
  #nextTimer = 0;
  #seen = 0;
  #failure: unknown = undefined;

  /** What the scenario's handler gets: 'barrage''s Socket (scenarios/barrage.d.ts). */
  readonly api: Readonly<Socket>;

  constructor(readonly id: number) {
    this.api = Object.freeze({
      on: (event: unknown, fn: unknown) => this.#on(event, fn),
      send: (text: unknown) => {
        hostCall('ws.send', [id, textOf(text)]);
      },
      sendBinary: (data: unknown) => {
        hostCall('ws.send', [id, bytesOf(data)]);
      },
      request: (data: unknown, match?: Match, opts?: unknown) => {
        const sent = typeof data === 'string' ? data : bytesOf(data);
        const [mark, after] = hostCall('ws.send', [id, sent]) as [number, number];
        return this.#waitFor(after, match, mark, opts, 'request()');
      },
      receive: (match?: Match, opts?: unknown) =>
        this.#waitFor(this.#seen, match, 0, opts, 'receive()'),
      close: (code?: unknown, reason?: unknown) => {
        const shown = reason === undefined ? '' : textOf(reason);
        hostCall('ws.close', [id, code === undefined ? 1000 : Number(code), shown]);
      },
      setTimeout: (fn: unknown, ms: unknown) => this.#timer(fn, ms, false),
      setInterval: (fn: unknown, ms: unknown) => this.#timer(fn, ms, true),
      clearTimeout: (t: unknown) => this.#clear(t),
      clearInterval: (t: unknown) => this.#clear(t),
    });
  }

  /** The error that failed the socket, if any. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Fails the socket: it closes with 1011, and connect() rejects with `error`. */
  fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    hostCall('ws.close', [this.id, 1011, '']);
  }

  /** An EVENT record of this socket. */
  event(type: unknown, payload: unknown): void {
    if (typeof type === 'number') this.#frame(type, payload as WsData);
    else if (type === 'open') this.#emit('open', []);
    else if (type === 'timer') {
      const t = this.#timers.get(payload);
      if (t === undefined) return;
      if (!t.repeat) this.#timers.delete(payload);
      this.#run(t.fn, []);
    } else if (type === 'error') this.#emit('error', [payload]);
    else if (type === 'close') {
      for (const waiter of this.#waiters) waiter.resolve(undefined);
      this.#waiters.clear();
      this.#timers.clear();
      this.#emit('close', [payload]);
    }
  }

  #on(event: unknown, fn: unknown): void {
    const list = (this.#handlers as Record<string, Handler[] | undefined>)[textOf(event)];
    if (list === undefined) throw new TypeError('socket.on(): one of ' + SOCKET_EVENTS.join(', '));
    if (typeof fn !== 'function') throw new TypeError('socket.on(): a handler function');
    list.push(fn as Handler);
  }

  #run(fn: Handler, args: unknown[]): void {
    if (this.#failure !== undefined) return;
    try {
      fn(...args);
    } catch (error) {
      this.fail(error);
    }
  }

  #emit(type: SocketEvent, args: unknown[]): void {
    for (const fn of this.#handlers[type]) this.#run(fn, args);
  }

  #timer(fn: unknown, ms: unknown, repeat: boolean): number {
    if (typeof fn !== 'function') throw new TypeError('a timer needs a function');
    const t = ++this.#nextTimer;
    hostCall('ws.timer', [this.id, t, Number(ms) || 0, repeat]);
    this.#timers.set(t, { fn: fn as Handler, repeat });
    return t;
  }

  #clear(t: unknown): void {
    if (typeof t === 'number' && this.#timers.delete(t)) hostCall('ws.clearTimer', [this.id, t]);
  }

  #waitFor(
    after: number,
    match: Match | undefined,
    mark: number,
    opts: unknown,
    what: string,
  ): Promise<WsData | undefined> {
    return new Promise((resolve) => {
      const waiter: Waiter = { after, match, mark, resolve, timer: 0 };
      const onTimeout = () => {
        this.#waiters.delete(waiter);
        hostCall('ws.timedOut', [this.id, what]);
        resolve(undefined);
      };
      waiter.timer = this.#timer(onTimeout, timeoutOf(opts), false);
      this.#waiters.add(waiter);
    });
  }

  #frame(seq: number, data: WsData): void {
    this.#seen = seq;
    for (const waiter of this.#waiters) {
      if (seq <= waiter.after) continue;
      let hit = false;
      try {
        hit = waiter.match === undefined || Boolean(waiter.match(data));
      } catch (error) {
        this.fail(error);
      }
      if (!hit) continue;
      this.#waiters.delete(waiter);
      this.#clear(waiter.timer);
      hostCall('ws.taken', [this.id, waiter.mark, seq]);
      waiter.resolve(data);
    }
    this.#emit(typeof data === 'string' ? 'message' : 'binaryMessage', [data]);
  }
}
