/**
 * The host operations a virtual user's isolate calls and the host answers at once (vu-host.ts's
 * hostCall; the host's side is runtime/script/script-ops.ts and script-sockets.ts): each one's
 * arguments, typed once for both sides, and the host's decoding of what crossed the boundary.
 * The isolate's calls are type-checked against HostCalls; the host checks every argument's shape
 * before it reads one (a value copied out of an isolate is unknown until checked), and a call
 * whose arguments do not fit is refused with an error that names the operation.
 */

/** Tags as a call carries them (the call's and the virtual user's own). */
export type CallTags = Readonly<Record<string, string>> | undefined;

/** Each host operation answered at once, by name: its arguments. */
export interface HostCalls {
  readonly check: readonly [name: string, pass: boolean, group: string | undefined, tags: CallTags];
  readonly metric: readonly [
    name: string,
    value: number,
    tags: CallTags,
    group: string | undefined,
  ];
  readonly 'vars.get': string;
  readonly 'vars.set': readonly [key: string, value: string, typed: boolean];
  readonly feed: null;
  readonly jsonpath: readonly [body: string, path: string];
  readonly 'cookies.get': string;
  readonly 'cookies.set': readonly [
    url: string,
    name: string,
    value: string,
    attributes: CookieAttributes | undefined,
  ];
  /** Forgets the cookies for a url (of one name), or with null every cookie. */
  readonly 'cookies.clear': readonly [url: string, name: string | undefined] | null;
  readonly html: readonly [body: string, selector: string];
  readonly 'ws.open': readonly [id: number, json: string];
  readonly 'ws.send': readonly [id: number, data: string | ArrayBuffer];
  readonly 'ws.close': readonly [id: number, code: number, reason: string];
  readonly 'ws.timer': readonly [id: number, timer: number, ms: number, repeat: boolean];
  readonly 'ws.clearTimer': readonly [id: number, timer: number];
  readonly 'ws.taken': readonly [id: number, mark: number, seq: number];
  readonly 'ws.timedOut': readonly [id: number, what: string];
  readonly 'timer.clear': number;
  readonly 'exec.info': null;
  readonly digest: readonly [
    challenge: string,
    username: string,
    password: string,
    method: string,
    uri: string,
  ];
  readonly 'exec.abort': string;
}

/** A cookie's attributes as jar.set() gives them (runtime/http/cookie-jar.ts reads them). */
export interface CookieAttributes {
  readonly domain?: string | undefined;
  readonly path?: string | undefined;
  /** A date as Set-Cookie's Expires takes it (RFC 1123: `Wed, 21 Oct 2026 07:28:00 GMT`). */
  readonly expires?: string | undefined;
  /** Seconds; 0 or less expires it at once. */
  readonly maxAge?: number | undefined;
  readonly secure?: boolean | undefined;
  readonly httpOnly?: boolean | undefined;
}

/** The name of a host operation answered at once. */
export type HostOp = keyof HostCalls;

/** A check that an unknown value is a T. */
type Guard<T> = (value: unknown) => value is T;

const text: Guard<string> = (v) => typeof v === 'string';
const number: Guard<number> = (v) => typeof v === 'number';
const flag: Guard<boolean> = (v) => typeof v === 'boolean';
const none: Guard<null> = (v) => v === null;
const optionalText: Guard<string | undefined> = (v) => v === undefined || typeof v === 'string';
const tags: Guard<CallTags> = (v): v is CallTags =>
  v === undefined ||
  (typeof v === 'object' && v !== null && Object.values(v).every((t) => typeof t === 'string'));
const ATTRIBUTE_GUARDS: Readonly<Record<string, Guard<unknown>>> = {
  domain: text,
  path: text,
  expires: text,
  maxAge: number,
  secure: flag,
  httpOnly: flag,
};
const attributes: Guard<CookieAttributes | undefined> = (v): v is CookieAttributes | undefined =>
  v === undefined ||
  (typeof v === 'object' &&
    v !== null &&
    Object.entries(v).every(([k, x]) => x === undefined || ATTRIBUTE_GUARDS[k]?.(x) === true));
const data: Guard<string | ArrayBuffer> = (v) => typeof v === 'string' || v instanceof ArrayBuffer;

/** A tuple whose every element passes its guard. */
function tuple<T extends readonly unknown[]>(...guards: { [I in keyof T]: Guard<T[I]> }): Guard<T> {
  return (v): v is T =>
    Array.isArray(v) && v.length === guards.length && guards.every((g, i) => g(v[i]));
}

const SHAPES: { readonly [K in HostOp]: Guard<HostCalls[K]> } = {
  check: tuple(text, flag, optionalText, tags),
  metric: tuple(text, number, tags, optionalText),
  'vars.get': text,
  'vars.set': tuple(text, text, flag),
  feed: none,
  jsonpath: tuple(text, text),
  'cookies.get': text,
  'cookies.set': tuple(text, text, text, attributes),
  'cookies.clear': (v): v is HostCalls['cookies.clear'] =>
    v === null || tuple(text, optionalText)(v),
  html: tuple(text, text),
  'ws.open': tuple(number, text),
  'ws.send': tuple(number, data),
  'ws.close': tuple(number, number, text),
  'ws.timer': tuple(number, number, number, flag),
  'ws.clearTimer': tuple(number, number),
  'ws.taken': tuple(number, number, number),
  'ws.timedOut': tuple(number, text),
  'timer.clear': number,
  'exec.info': none,
  digest: tuple(text, text, text, text, text),
  'exec.abort': text,
};

/** True when `op` names a host operation answered at once. */
export function isHostOp(op: string): op is HostOp {
  return Object.hasOwn(SHAPES, op);
}

/** The arguments of `op`, checked; throws, naming the operation, when they do not fit. */
export function decodeHostCall<K extends HostOp>(op: K, args: unknown): HostCalls[K] {
  const shape: Guard<HostCalls[K]> = SHAPES[op];
  if (!shape(args)) throw new Error(`${op}: malformed arguments from the isolate`);
  return args;
}
