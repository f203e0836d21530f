/**
 * A virtual user's link to the host (bootstrap.ts hands it over first): the hub's post, the host
 * operations answered at once (`call`), and those that settle later (`wait`, a START record, then
 * an OK, RESPONSE or FAILED record that settles its promise). Also the virtual user's number, its
 * groups and its own tags, which every call carries.
 */
import { outbound, type Post } from './records.js';
import { MAX_WAITING_CALLS, WAITING_REFUSED } from '../waiting-calls.js';
import { textOf } from './intrinsics.js';
import type { HostCalls, HostOp } from './host-calls.js';

/** A host operation answered at once (check, vars, feed, jsonpath, html, metric, ws.*, cookies.*). */
export type HostCall = (op: string, args: unknown) => unknown;

let post: Post;
let call: HostCall;
/** This virtual user's number (0-based). */
export let vuNumber = 0;

/** Hands over the host's handles. */
export function bindHost(givenPost: Post, givenCall: HostCall, vu: number): void {
  post = givenPost;
  call = givenCall;
  vuNumber = vu;
}

/** Calls the host (an operation answered at once), with its arguments as host-calls.ts types them. */
export const hostCall = <K extends HostOp>(op: K, args: HostCalls[K]): unknown => call(op, args);

/** Posts an END record: an entry of this virtual user ended (records.ts). */
export const postEnd = (token: number, json: string): void =>
  outbound.end(post, vuNumber, token, json);

/** Posts a LOG record: a console call. */
export const postLog = (level: string, text: string): void =>
  outbound.log(post, vuNumber, level, text);

/** Posts a START record: a host operation that settles later. */
export const postStart = (id: number, op: string, json: string): void =>
  outbound.start(post, vuNumber, id, op, json);

/** A host operation's refusal, thrown where the scenario awaited it (settled()). */
export class Refusal {
  constructor(readonly message: string) {}
}

/** The resolve functions of the operations waiting, by id. */
export const pending = new Map<number, (value: unknown) => void>();
let nextId = 0;

/** A new call id (operations and sockets share them). */
export const newId = (): number => ++nextId;

// The executor of every wait's promise: it hands the resolve function over, so that no closure
// is made per call.
let captured: (value: unknown) => void = () => undefined;
const capture = (resolve: (value: unknown) => void): void => {
  captured = resolve;
};

/** A promise settled by the host's record for `id`. */
export const waitFor = (id: number): Promise<unknown> => {
  const promise = new Promise(capture);
  pending.set(id, captured);
  return promise;
};

/** No bytes: what most operations carry besides their JSON text. */
const NO_BYTES: readonly ArrayBuffer[] = [];

/**
 * A host operation that settles later; its arguments go as JSON text, and the bytes they name
 * (by their place in `bytes`) as BYTES records right before it, never as text.
 */
export const wait = (
  op: string,
  json: string,
  bytes: readonly ArrayBuffer[] = NO_BYTES,
): Promise<unknown> => {
  const id = newId();
  const promise = waitFor(id);
  for (const buffer of bytes) outbound.bytes(post, vuNumber, id, buffer);
  postStart(id, op, json);
  return promise;
};

// Called by the async functions that await wait(): a refusal thrown here carries the scenario's
// own frames (V8's async stack traces), so its line is known without capturing a stack per call.
export const settled = (value: unknown): unknown => {
  if (value instanceof Refusal) throw new Error(value.message);
  return value;
};

/** The host's answer to operation `id`. */
export const settle = (id: unknown, value: unknown): void => {
  const resolve = pending.get(id as number);
  if (resolve === undefined) return;
  pending.delete(id as number);
  resolve(value);
};

// The calls a virtual user may have waiting (sandbox/waiting-calls.ts): one past them throws where
// it is made, at once, so that a loop of calls no one awaits ends there.
export const room = (op: string): void => {
  if (pending.size >= MAX_WAITING_CALLS) throw new Error(op + ': ' + WAITING_REFUSED);
};

/** The groups the running code is in, innermost last. */
export const groups: string[] = [];

/** The group a call is made in (nested groups joined by " › "), its tag on the call's samples. */
export const groupName = (): string | undefined =>
  groups.length === 0 ? undefined : groups.join(' › ');

/** This virtual user's own tags (`vu.tags`, as k6's exec.vu.tags), on all its samples. */
export const vuTags: Record<string, unknown> = Object.create(null) as Record<string, unknown>;

export const hasVuTags = (): boolean => {
  for (const _ in vuTags) return true;
  return false;
};

/** The VU's tags, then a call's `tags` option over them, as text values (the host checks the keys). */
export const tagsOf = (tags: unknown): Record<string, string> | undefined => {
  const own = tags !== undefined && tags !== null && typeof tags === 'object';
  if (!own && !hasVuTags()) return undefined;
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(vuTags)) out[textOf(k)] = textOf(v);
  if (own) for (const [k, v] of Object.entries(tags)) out[textOf(k)] = textOf(v);
  return out;
};
