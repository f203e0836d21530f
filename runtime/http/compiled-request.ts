/**
 * An endpoint compiled once into the parts of an undici dispatch (STYLE.md rule 8): constant
 * strings and buffers where the templates are static, render functions where they are not. At
 * request time fill() only renders the dynamic parts.
 *
 * fill() also says where the request goes (`out.origin`, for the virtual user's per-origin
 * client): the endpoint's origin, or, for a url from a variable, the origin of the url it renders
 * when that is allowed (allowed-hosts.ts). A multipart body with placeholders is encoded per
 * request, asynchronously: fill() then answers BODY_PENDING and finishBody() completes it.
 */
import type { Dispatcher } from 'undici';
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import { checksReadBody } from '../checks/evaluate-check.js';
import { ResponseVerifier } from '../checks/response-verifier.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { Random } from '../../model/random.js';
import { readsBody } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';
import { AllowedHosts } from './allowed-hosts.js';
import { mergeCookieHeader, type UserCookies } from './cookie-jar.js';
import { MultipartBody } from './multipart-body.js';
import { MAX_KEPT_BODY } from './response-body.js';
import type { ScenarioGraph } from '../../model/plan/scenario-graph.js';

/** fill()'s answer when the body is still to be encoded: call finishBody() before dispatching. */
export const BODY_PENDING = -1;

/** The dispatch options a request needs (a subset of undici's, all we set). */
export type RequestOptions = Dispatcher.DispatchOptions & { headers: string[]; origin: string };

/**
 * A plan's endpoints compiled; every response body is kept when a flow's condition reads the last
 * response's JSON, else `keepBytes` of each unless the endpoint reads it.
 */
export function compileRequests(graph: ScenarioGraph, keepBytes = 0): CompiledRequest[] {
  const keep = graph.flows.some((f) => f.readsBody) ? MAX_KEPT_BODY : keepBytes;
  return graph.endpoints.map((e) => new CompiledRequest(e, keep));
}

/** Prebuilt request parts for one endpoint. */
export class CompiledRequest {
  readonly endpoint: EndpointPlan;
  readonly keepBody: number;
  /** Expected statuses and checks of the response; undefined when the endpoint has neither. */
  readonly verifier: ResponseVerifier | undefined;
  /** The path and query, or the whole url when it comes from a variable (`#hosts` set). */
  readonly #path: CompiledTemplate;
  /** `query:`, form-encoded, appended to the url's own query. */
  readonly #query: CompiledTemplate | undefined;
  /** Where a url from a variable may go. */
  readonly #hosts: AllowedHosts | undefined;
  readonly #headerNames: readonly string[];
  readonly #headerValues: readonly CompiledTemplate[];
  readonly #staticHeaders: readonly string[] | undefined;
  /** The endpoint sets its own Authorization header: it wins over the auth provider's. */
  readonly #ownAuthorization: boolean;
  /** Where the endpoint's own Cookie header is among its headers (-1: none): the jar's merge in. */
  readonly #ownCookie: number;
  /** A static body, encoded once. */
  readonly #bodyBytes: Buffer | undefined;
  /** A body with placeholders. */
  readonly #bodyTemplate: CompiledTemplate | undefined;
  readonly #multipart: MultipartBody | undefined;

  /**
   * `keepBytes`: how much of every response body to keep even when nothing of the endpoint reads
   * it (a TypeScript scenario's response object: MAX_KEPT_BODY; the HTTP debug log: what it shows).
   */
  constructor(endpoint: EndpointPlan, keepBytes = 0) {
    this.endpoint = endpoint;
    const verify = endpoint.verify;
    const needsBody =
      keepBytes >= MAX_KEPT_BODY ||
      readsBody(endpoint.extract) ||
      readsBody(endpoint.metrics.map((m) => m.extractor)) ||
      (verify !== undefined && checksReadBody(verify.checks)) ||
      (endpoint.llm !== undefined && endpoint.stream === undefined);
    this.keepBody = needsBody ? MAX_KEPT_BODY : keepBytes;
    this.verifier =
      verify === undefined
        ? undefined
        : new ResponseVerifier(verify, endpoint.extract, endpoint.name);
    const path = compileTemplate(endpoint.path);
    const query = endpoint.query === undefined ? undefined : compileTemplate(endpoint.query);
    const fixed = endpoint.urlFromVariable === undefined;
    // A static path and query are joined once.
    const joined = typeof path === 'string' && typeof query === 'string' && fixed;
    this.#path = joined ? withQuery(path, query) : path;
    this.#query = joined ? undefined : query;
    this.#hosts = fixed
      ? undefined
      : new AllowedHosts(new URL(endpoint.origin).host, endpoint.urlFromVariable.allowedHosts);
    this.#headerNames = endpoint.headers.map((h) => h.name);
    this.#headerValues = endpoint.headers.map((h) => compileTemplate(h.value));
    this.#ownAuthorization = this.#headerNames.some((n) => n.toLowerCase() === 'authorization');
    this.#ownCookie = this.#headerNames.findIndex((n) => n.toLowerCase() === 'cookie');
    const body = endpoint.body;
    this.#multipart = body?.kind === 'multipart' ? new MultipartBody(body.parts) : undefined;
    this.#staticHeaders =
      this.#multipart === undefined && this.#headerValues.every((v) => typeof v === 'string')
        ? this.#headerNames.flatMap((name, i) => [name, this.#headerValues[i] as string])
        : undefined;
    const text = body?.kind === 'text' ? compileTemplate(body.text) : undefined;
    this.#bodyBytes =
      body?.kind === 'bytes'
        ? Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength)
        : typeof text === 'string'
          ? Buffer.from(text)
          : undefined;
    this.#bodyTemplate = typeof text === 'function' ? text : undefined;
  }

  /**
   * Fills `out` for one request; `authorization`, when given, is added as a header unless the
   * endpoint sets its own, and the cookies of `cookies` (a virtual user's jar) for the request's
   * url are merged into the endpoint's own Cookie header or added. Returns the request body size; BODY_PENDING when the body must still
   * be encoded (finishBody()); or the error kind of a request that must not be sent: a missing
   * variable, a url from a variable that goes where it may not.
   */
  fill(
    out: RequestOptions,
    vars: VariableStore,
    random: Random,
    given: string | undefined,
    cookies?: UserCookies,
  ): number | ErrorKind {
    const authorization = this.#ownAuthorization ? undefined : given;
    const target = this.#target(out, vars, random);
    if (target !== undefined) return target;
    const cookie = cookies?.header(out.origin, out.path);
    let headers: string[];
    if (this.#staticHeaders !== undefined && authorization === undefined && cookie === undefined) {
      headers = this.#staticHeaders as string[];
    } else {
      headers = [];
      for (let i = 0; i < this.#headerNames.length; i++) {
        let value = render(this.#headerValues[i]!, vars, random);
        if (value === undefined) return 'missing_variable';
        if (i === this.#ownCookie && cookie !== undefined) value = mergeCookieHeader(value, cookie);
        headers.push(this.#headerNames[i]!, value);
      }
      // A multipart body's Content-Type (its boundary) is known once it is encoded.
      if (this.#multipart !== undefined)
        headers.push('content-type', this.#multipart.encoded?.contentType ?? '');
      if (cookie !== undefined && this.#ownCookie < 0) headers.push('cookie', cookie);
      // Last, so that replaceAuthorization() finds it.
      if (authorization !== undefined) headers.push('authorization', authorization);
    }
    out.method = this.endpoint.method;
    out.headers = headers;
    if (this.#multipart !== undefined) return this.#multipartBody(out, vars, random);
    let body: Buffer | string | null = null;
    if (this.#bodyBytes !== undefined) body = this.#bodyBytes;
    else if (this.#bodyTemplate !== undefined) {
      const text = render(this.#bodyTemplate, vars, random);
      if (text === undefined) return 'missing_variable';
      body = text;
    }
    out.body = body;
    return bodySize(body);
  }

  /**
   * Encodes the body of options that fill() answered BODY_PENDING for (a multipart form) and sets
   * its Content-Type; resolves to the body size.
   */
  async finishBody(out: RequestOptions): Promise<number> {
    const encoded = await this.#multipart!.encode(out.body as FormData);
    out.body = encoded.bytes;
    out.headers[this.#headerNames.length * 2 + 1] = encoded.contentType;
    return encoded.bytes.length;
  }

  /** Replaces the Authorization value of options that fill() built with one (before a retry). */
  replaceAuthorization(out: RequestOptions, authorization: string): void {
    if (!this.#ownAuthorization) out.headers[out.headers.length - 1] = authorization;
  }

  /** Sets the origin and path; the error kind when the request must not be sent. */
  #target(out: RequestOptions, vars: VariableStore, random: Random): ErrorKind | undefined {
    let path = render(this.#path, vars, random);
    if (path === undefined) return 'missing_variable';
    if (this.#query !== undefined) {
      const query = render(this.#query, vars, random);
      if (query === undefined) return 'missing_variable';
      path = withQuery(path, query);
    }
    if (this.#hosts === undefined || (path.startsWith('/') && !path.startsWith('//'))) {
      out.origin = this.endpoint.origin;
      out.path = path;
      return undefined;
    }
    // A url from a variable that is not a path: an absolute http(s) url to an allowed host.
    const url = URL.parse(path);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return 'url_not_allowed';
    if (!this.#hosts.allows(url)) return 'url_not_allowed';
    out.origin = url.origin;
    out.path = url.pathname + url.search;
    return undefined;
  }

  /** The multipart body: encoded already (no placeholders), or a form to encode (BODY_PENDING). */
  #multipartBody(out: RequestOptions, vars: VariableStore, random: Random): number | ErrorKind {
    const multipart = this.#multipart!;
    const encoded = multipart.encoded;
    if (encoded !== undefined) {
      out.body = encoded.bytes;
      return encoded.bytes.length;
    }
    const form = multipart.form(vars, random);
    if (form === undefined) return 'missing_variable';
    // Held here until encoded (Node's global FormData, typed apart from the package's): the body
    // dispatched is its bytes.
    out.body = form as unknown as NonNullable<RequestOptions['body']>;
    return BODY_PENDING;
  }
}

/** A request body's size in bytes (a stream or form still to encode counts 0). */
export function bodySize(body: RequestOptions['body']): number {
  if (body === null || body === undefined) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  return body instanceof Uint8Array ? body.byteLength : 0;
}

/** A path with a query appended: after its own query with "&", else after "?". */
function withQuery(path: string, query: string): string {
  if (query === '') return path;
  return path + (path.includes('?') ? '&' : '?') + query;
}
