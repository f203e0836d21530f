/**
 * What a scenario's http call asks for (the bootstrap builds it as JSON text) turned into the
 * parts of an endpoint: its path with `query` appended to the url's own query, its headers (the
 * run's, then the call's, then the content-type its body needs, then the defaults of a buffered
 * or a streamed call: defaultHeaders()) and its body: text, JSON, `form` fields (urlencoded) or
 * `multipart` parts.
 */
import {
  defaultHeaders,
  type BodyPlan,
  type HeaderPlan,
  type MultipartPart,
  type StreamKind,
  type StreamPlan,
} from '../../model/plan/endpoint-plan.js';
import { parseStatusEntry, STATUS_ENTRY, type StatusSet } from '../../model/plan/status-set.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** A multipart part of a scripted request: a field, or a file (its data as text). */
export interface MultipartArg {
  readonly name: string;
  readonly data: string;
  readonly file: boolean;
  readonly filename?: string;
  readonly contentType?: string;
}

/** What a scripted request asks for (built by the bootstrap). */
export interface HttpArgs {
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
  readonly json: boolean;
  /** `query` and `form` as name, value pairs (a list's values each with its name). */
  readonly query: readonly [string, string][];
  readonly form: readonly [string, string][] | undefined;
  readonly multipart: readonly MultipartArg[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeout: number | undefined;
  readonly name: string | undefined;
  /** The `group()` names the call is made in, joined by " › "; undefined outside any. */
  readonly group: string | undefined;
  /** The `tags` option: the scenario's own tags on this request's samples. */
  readonly tags: Readonly<Record<string, string>> | undefined;
  readonly redirects: number | undefined;
  /** The `expect` option as the scenario gave it (checked by expectOf). */
  readonly expect: unknown;
  /** The `stream` option as the scenario gave it (checked by streamOf). */
  readonly stream: unknown;
  /** The `idleTimeout` option, ms. */
  readonly idleTimeout: number | undefined;
}

/** The path, headers and body of a call to `url` (resolved already); `run` are the run's headers. */
export function requestParts(
  args: HttpArgs,
  url: URL,
  run: readonly HeaderPlan[],
): { path: string; headers: HeaderPlan[]; body: BodyPlan | undefined } {
  const own = new Set(Object.keys(args.headers).map((n) => n.toLowerCase()));
  const multipart = args.multipart !== undefined;
  // A multipart body's Content-Type names its boundary: the encoder sets it.
  const headers: HeaderPlan[] = [
    ...run.filter((h) => !own.has(h.name.toLowerCase())),
    ...Object.entries(args.headers).map(([name, value]) => ({ name, value: [value] })),
  ].filter((h) => !multipart || h.name.toLowerCase() !== 'content-type');
  const type = args.form !== undefined ? FORM_TYPE : args.json ? JSON_TYPE : undefined;
  if (type !== undefined) withDefault(headers, 'content-type', type);
  for (const [name, value] of defaultHeaders(streamOf(args.stream)))
    withDefault(headers, name, value);
  const query = args.query.length === 0 ? '' : new URLSearchParams(args.query).toString();
  const joint = url.search === '' ? '?' : '&';
  const path = url.pathname + url.search + (query === '' ? '' : joint + query);
  return { path, headers, body: scriptBody(args) };
}

/** Adds header `name` (lower case) unless the headers have it, in any case. */
export function withDefault(headers: HeaderPlan[], name: string, value: string): void {
  if (!headers.some((h) => h.name.toLowerCase() === name)) headers.push({ name, value: [value] });
}

/**
 * A call's `stream` option: 'sse', 'chunks', or none (undefined, null). Anything else throws where
 * the call was made, listing what it may be.
 */
export function streamOf(given: unknown): StreamKind | undefined {
  if (given === undefined || given === null) return undefined;
  if (given === 'sse' || given === 'chunks') return given;
  throw new Error(`stream: expected 'sse' or 'chunks'; got ${JSON.stringify(given)}`);
}

/** A call's `stream` and `idleTimeout` options (not positive or not a number: no idle timeout). */
export function streamPlan(args: HttpArgs): StreamPlan | undefined {
  const kind = streamOf(args.stream);
  if (kind === undefined) return undefined;
  const idle = args.idleTimeout;
  return { kind, idleTimeoutMs: idle !== undefined && idle > 0 ? idle : undefined };
}

/** The body of a scripted request: text, form fields (urlencoded) or multipart parts. */
function scriptBody(args: HttpArgs): BodyPlan | undefined {
  if (args.form !== undefined)
    return { kind: 'text', text: [new URLSearchParams(args.form).toString()] };
  if (args.multipart !== undefined)
    return {
      kind: 'multipart',
      parts: args.multipart.map((part): MultipartPart =>
        !part.file
          ? { kind: 'field', name: part.name, value: [part.data] }
          : {
              kind: 'file',
              name: part.name,
              bytes: Buffer.from(part.data, 'utf8'),
              filename: part.filename ?? 'blob',
              contentType: part.contentType ?? 'application/octet-stream',
            },
      ),
    };
  return args.body === undefined ? undefined : { kind: 'text', text: [args.body] };
}

/**
 * The statuses that are a success for a call: its `expect: { status }` option, else the run's
 * `expect`. A malformed option throws where the call was made, naming what was expected.
 */
export function expectOf(given: unknown, run: StatusSet | undefined): StatusSet | undefined {
  if (given === undefined || given === null) return run;
  const status = typeof given === 'object' ? (given as { status?: unknown }).status : undefined;
  const entries: unknown[] = Array.isArray(status) ? status : status === undefined ? [] : [status];
  const set = entries.map(parseStatusEntry);
  const wrong = set.findIndex((range) => typeof range === 'string');
  if (entries.length === 0 || wrong >= 0) {
    const got = wrong >= 0 ? `; got ${JSON.stringify(entries[wrong])}` : '';
    throw new Error(
      `expect: expected { status: [...] }, each entry ${STATUS_ENTRY} (e.g. { status: [200, 404] })${got}`,
    );
  }
  return set as StatusSet;
}
