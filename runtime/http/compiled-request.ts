/**
 * An endpoint compiled once into the parts of an undici dispatch (STYLE.md rule 8): constant
 * strings and buffers where the templates are static, render functions where they are not. At
 * request time fill() only renders the dynamic parts.
 */
import type { Dispatcher } from 'undici';
import type { EndpointPlan } from '../../dsl/plan/endpoint-plan.js';
import type { Random } from '../random.js';
import { readsBody } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** Largest response body kept in memory for extractors and scripts. */
export const MAX_KEPT_BODY = 1024 * 1024;

/** The dispatch options a request needs (a subset of undici's, all we set). */
export type RequestOptions = Dispatcher.DispatchOptions & { headers: string[] };

/** Prebuilt request parts for one endpoint. */
export class CompiledRequest {
  readonly endpoint: EndpointPlan;
  readonly keepBody: number;
  readonly keepHeaders: boolean;
  readonly #path: CompiledTemplate;
  readonly #headerNames: readonly string[];
  readonly #headerValues: readonly CompiledTemplate[];
  readonly #staticHeaders: readonly string[] | undefined;
  /** The endpoint sets its own Authorization header: it wins over the auth provider's. */
  readonly #ownAuthorization: boolean;
  /** A static body, encoded once. */
  readonly #bodyBytes: Buffer | undefined;
  /** A body with placeholders. */
  readonly #bodyTemplate: CompiledTemplate | undefined;

  constructor(endpoint: EndpointPlan, keepBody = false) {
    this.endpoint = endpoint;
    const needsBody = keepBody || readsBody(endpoint.extract);
    this.keepBody = needsBody ? MAX_KEPT_BODY : 0;
    this.keepHeaders = keepBody || endpoint.extract.some((e) => e.from === 'header');
    this.#path = compileTemplate(endpoint.path);
    this.#headerNames = endpoint.headers.map((h) => h.name);
    this.#headerValues = endpoint.headers.map((h) => compileTemplate(h.value));
    this.#ownAuthorization = this.#headerNames.some((n) => n.toLowerCase() === 'authorization');
    this.#staticHeaders = this.#headerValues.every((v) => typeof v === 'string')
      ? this.#headerNames.flatMap((name, i) => [name, this.#headerValues[i] as string])
      : undefined;
    const body = endpoint.body === undefined ? undefined : compileTemplate(endpoint.body);
    this.#bodyBytes = typeof body === 'string' ? Buffer.from(body) : undefined;
    this.#bodyTemplate = typeof body === 'function' ? body : undefined;
  }

  /**
   * Fills `out` for one request; `authorization`, when given, is added as a header unless the
   * endpoint sets its own. Returns the request body size, or -1 when a variable is missing (the
   * request must not be sent).
   */
  fill(
    out: RequestOptions,
    vars: VariableStore,
    random: Random,
    given: string | undefined,
  ): number {
    const authorization = this.#ownAuthorization ? undefined : given;
    const path = render(this.#path, vars, random);
    if (path === undefined) return -1;
    let headers: string[];
    if (this.#staticHeaders !== undefined && authorization === undefined) {
      headers = this.#staticHeaders as string[];
    } else {
      headers = [];
      for (let i = 0; i < this.#headerNames.length; i++) {
        const value = render(this.#headerValues[i]!, vars, random);
        if (value === undefined) return -1;
        headers.push(this.#headerNames[i]!, value);
      }
      // Last, so that replaceAuthorization() finds it.
      if (authorization !== undefined) headers.push('authorization', authorization);
    }
    let body: Buffer | string | null = null;
    if (this.#bodyBytes !== undefined) body = this.#bodyBytes;
    else if (this.#bodyTemplate !== undefined) {
      const text = render(this.#bodyTemplate, vars, random);
      if (text === undefined) return -1;
      body = text;
    }
    out.path = path;
    out.method = this.endpoint.method;
    out.headers = headers;
    out.body = body;
    return body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  }

  /** Replaces the Authorization value of options that fill() built with one (before a retry). */
  replaceAuthorization(out: RequestOptions, authorization: string): void {
    if (!this.#ownAuthorization) out.headers[out.headers.length - 1] = authorization;
  }
}
