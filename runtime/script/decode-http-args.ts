/**
 * The host's decoding of a scripted http call's arguments (START's JSON text, built by
 * sandbox/isolate/request-args.ts): every field the request builder reads is checked for its
 * type before the text is taken as HttpArgs. A key the JSON text left out (an undefined value)
 * reads as undefined, as HttpArgs allows for those fields.
 */
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
const optionalNumber = optional((v) => typeof v === 'number');

/** What each field of HttpArgs must be (expect and stream are checked where they are read). */
const FIELDS: Readonly<Record<keyof HttpArgs, (v: unknown) => boolean>> = {
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
};

function isHttpArgs(v: unknown): v is HttpArgs {
  return isObject(v) && Object.entries(FIELDS).every(([key, is]) => is(v[key]));
}

/** The arguments of a scripted http call; throws when the text does not hold them. */
export function decodeHttpArgs(json: string): HttpArgs {
  const args: unknown = JSON.parse(json);
  if (!isHttpArgs(args)) throw new Error('http: malformed arguments from the isolate');
  return args;
}
