/**
 * What a scenario's http call asks for (the bootstrap builds it as JSON text) turned into the
 * parts of a request for the one request builder (model/request/request-builder.ts), which YAML
 * endpoints go through too: its path with `query` appended to the url's own query, its own
 * headers and its body: text, JSON, `form` fields (urlencoded) or `multipart` parts.
 */
import type {
  BodyPlan,
  EndpointPlan,
  HeaderPlan,
  MultipartPart,
  StreamKind,
  StreamPlan,
} from '../../model/plan/endpoint-plan.js';
import type { VerifyPlan } from '../../model/plan/check-plan.js';
import { parseStatusEntry, STATUS_ENTRY, type StatusSet } from '../../model/plan/status-set.js';
import type { Tags } from '../../model/metrics/metric-registry.js';
import { buildRequest, type BodyType } from '../../model/request/request-builder.js';
import { llmOf } from './script-llm.js';

/** A multipart part of a scripted request: a field, or a file (its data as text or bytes). */
export interface MultipartArg {
  readonly name: string;
  readonly data: string;
  /** A file's bytes: their place among the call's bytes; undefined when its data is text. */
  readonly bytes?: number;
  readonly file: boolean;
  readonly filename?: string;
  readonly contentType?: string;
}

/** What a scripted request asks for (built by the bootstrap). */
export interface HttpArgs {
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
  /** A body of bytes: their place among the call's bytes (then `body` is undefined). */
  readonly binary?: number;
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
  /** The `llm` option as the scenario gave it (checked by llmOf). */
  readonly llm?: unknown;
}

/** What a call's request is besides its arguments: named, tagged and bounded by the run. */
export interface CallContext {
  readonly index: number;
  readonly name: string;
  readonly tags: Tags;
  /** The run's headers (the top-level ones, then User-Agent). */
  readonly runHeaders: readonly HeaderPlan[];
  readonly verify: VerifyPlan | undefined;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
}

/** The request of a call to `url` (resolved already), with the bytes its arguments name. */
export function scriptRequest(
  args: HttpArgs,
  url: URL,
  bytes: readonly Uint8Array[],
  context: CallContext,
): EndpointPlan {
  const query = args.query.length === 0 ? '' : new URLSearchParams(args.query).toString();
  const joint = url.search === '' ? '?' : '&';
  return buildRequest({
    ...context,
    method: args.method,
    origin: url.origin,
    path: [url.pathname + url.search + (query === '' ? '' : joint + query)],
    url: args.url,
    headers: Object.entries(args.headers).map(([name, value]) => ({ name, value: [value] })),
    body: scriptBody(args, bytes),
    bodyType: bodyTypeOf(args),
    stream: streamPlan(args),
    llm: llmOf(args.llm),
  });
}

/** What a call's body is: form fields, multipart parts, JSON or text. */
function bodyTypeOf(args: HttpArgs): BodyType | undefined {
  if (args.form !== undefined) return 'form';
  if (args.multipart !== undefined) return 'multipart';
  if (args.binary !== undefined) return 'bytes';
  if (args.body === undefined) return undefined;
  return args.json ? 'json' : 'text';
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
function streamPlan(args: HttpArgs): StreamPlan | undefined {
  const kind = streamOf(args.stream);
  if (kind === undefined) return undefined;
  const idle = args.idleTimeout;
  return { kind, idleTimeoutMs: idle !== undefined && idle > 0 ? idle : undefined };
}

/** The bytes at `place` among a call's; a place the call did not send throws. */
function bytesAt(bytes: readonly Uint8Array[], place: number): Uint8Array {
  const found = bytes[place];
  if (found === undefined) throw new Error(`bug: the call's bytes #${place} did not arrive`);
  return found;
}

/** The body of a scripted request: text, bytes, form fields (urlencoded) or multipart parts. */
function scriptBody(args: HttpArgs, bytes: readonly Uint8Array[]): BodyPlan | undefined {
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
              bytes:
                part.bytes === undefined
                  ? Buffer.from(part.data, 'utf8')
                  : bytesAt(bytes, part.bytes),
              filename: part.filename ?? 'blob',
              contentType: part.contentType ?? 'application/octet-stream',
            },
      ),
    };
  if (args.binary !== undefined) return { kind: 'bytes', bytes: bytesAt(bytes, args.binary) };
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
