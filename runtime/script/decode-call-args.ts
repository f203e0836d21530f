/**
 * The host's decoding of the arguments of a scripted call that settles later (START's JSON text:
 * an http call's, built by sandbox/isolate/request-args.ts; a ws.session()'s and a
 * ws.connect()'s, by ws-api.ts): every field the host reads is checked for its type before the
 * text is taken as those arguments. A key the JSON text left out (an undefined value) reads as
 * undefined, as the optional fields allow.
 */
import type { ConnectArgs, WsArgs } from './script-sockets.js';
import type { HttpArgs } from './script-request.js';

type Fields = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null;
const isText = (v: unknown): v is string => typeof v === 'string';
const optional =
  (is: (v: unknown) => boolean) =>
  (v: unknown): boolean =>
    v === undefined || is(v);
const isPairs = (v: unknown): boolean =>
  Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every(isText));
const isTextRecord = (v: unknown): boolean => isObject(v) && Object.values(v).every(isText);
const isPart = (v: unknown): boolean =>
  isObject(v) &&
  isText(v.name) &&
  isText(v.data) &&
  typeof v.file === 'boolean' &&
  optional((b) => typeof b === 'number')(v.bytes) &&
  optional(isText)(v.filename) &&
  optional(isText)(v.contentType);
// A number the isolate gave as NaN or ±Infinity crosses JSON as null: read as not given (an
// optional number) or as 0 (ws.session()'s interval), as the host always read it.
const optionalNumber = (v: unknown): boolean =>
  v === undefined || v === null || typeof v === 'number';
const numberOrZero = (v: unknown): boolean => v === null || typeof v === 'number';
/** What a null (a number that was no finite one) of a field checked so reads as. */
const NULL_READS = new Map<(v: unknown) => boolean, undefined | number>([
  [optionalNumber, undefined],
  [numberOrZero, 0],
]);
const isTexts = (v: unknown): boolean => Array.isArray(v) && v.every(isText);

/** A check of each field of T. */
type FieldChecks<T> = Readonly<Record<keyof T, (v: unknown) => boolean>>;

/** The arguments of `op` in `json`, each field checked; throws, naming `op`, when one is not. */
function decode<T>(op: string, json: string, fields: FieldChecks<T>): T {
  const parsed: unknown = JSON.parse(json);
  const checks: [string, (v: unknown) => boolean][] = Object.entries(fields);
  if (!isObject(parsed) || !checks.every(([key, is]) => is(parsed[key])))
    throw new Error(`${op}: malformed arguments from the isolate`);
  const args: Record<string, unknown> = { ...parsed };
  for (const [key, is] of checks)
    if (args[key] === null && NULL_READS.has(is)) args[key] = NULL_READS.get(is);
  // Every field T has was checked above.
  return args as T;
}

/** What each field of HttpArgs must be (expect, stream and llm are checked where they are read). */
const HTTP_FIELDS: FieldChecks<HttpArgs> = {
  method: isText,
  url: isText,
  body: optional(isText),
  binary: optionalNumber,
  json: (v) => typeof v === 'boolean',
  query: isPairs,
  form: optional(isPairs),
  multipart: optional((v) => Array.isArray(v) && v.every(isPart)),
  headers: isTextRecord,
  timeout: optionalNumber,
  name: optional(isText),
  group: optional(isText),
  tags: optional(isTextRecord),
  redirects: optionalNumber,
  expect: () => true,
  stream: () => true,
  idleTimeout: optionalNumber,
  llm: () => true,
};

/** What each field of a ws.session()'s arguments must be. */
const WS_FIELDS: FieldChecks<WsArgs> = {
  url: isText,
  messages: isTexts,
  interval: numberOrZero,
  subprotocols: isTexts,
  timeout: optionalNumber,
  name: optional(isText),
  group: optional(isText),
  tags: optional(isTextRecord),
};

/** What each field of a ws.connect()'s arguments must be. */
const CONNECT_FIELDS: FieldChecks<ConnectArgs> = {
  url: isText,
  headers: isTextRecord,
  subprotocols: isTexts,
  timeout: optionalNumber,
  name: optional(isText),
  group: optional(isText),
  tags: optional(isTextRecord),
};

/** The arguments of a scripted http call; throws when the text does not hold them. */
export const decodeHttpArgs = (json: string): HttpArgs => decode('http', json, HTTP_FIELDS);

/** The arguments of a ws.session(); throws when the text does not hold them. */
export const decodeWsArgs = (json: string): WsArgs => decode('ws', json, WS_FIELDS);

/** The arguments of a ws.connect(); throws when the text does not hold them. */
export const decodeConnectArgs = (json: string): ConnectArgs =>
  decode('ws.connect', json, CONNECT_FIELDS);
