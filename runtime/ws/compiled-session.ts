/**
 * A ws:// or wss:// endpoint compiled once into what its sessions need (STYLE.md rule 8): the url
 * and header templates, the messages as constant strings, render functions or bytes. A session
 * renders only the dynamic parts.
 */
import type { EndpointPlan, ExtractorPlan } from '../../dsl/plan/endpoint-plan.js';
import type { Random } from '../random.js';
import { readsBody } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** Where a session connects and with which handshake headers. */
export interface SessionTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A message ready to send: text (UTF-8) or bytes. */
export type SessionPayload = string | Buffer;

/** One configured message: a text template or constant bytes. */
type CompiledMessage =
  | { readonly text: CompiledTemplate; readonly bytes?: undefined }
  | { readonly text?: undefined; readonly bytes: Buffer };

/** The prebuilt parts of one WebSocket endpoint. */
export class CompiledSession {
  readonly index: number;
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly subprotocols: readonly string[];
  readonly extract: readonly ExtractorPlan[];
  /** Header extractors read the handshake response (101), so its headers must be kept. */
  readonly keepHeaders: boolean;
  /** Body extractors (json, regex, css) read response frames, so the reply frame must be kept. */
  readonly keepReply: boolean;
  /** The endpoint sets its own Authorization header: the auth provider is not asked. */
  readonly ownAuthorization: boolean;
  readonly messageCount: number;
  readonly #origin: string;
  readonly #path: CompiledTemplate;
  readonly #headerNames: readonly string[];
  readonly #headerValues: readonly CompiledTemplate[];
  /** All headers when none has a placeholder (then shared by every session without auth). */
  readonly #staticHeaders: Readonly<Record<string, string>> | undefined;
  readonly #messages: readonly CompiledMessage[];

  constructor(endpoint: EndpointPlan) {
    const ws = endpoint.ws;
    if (ws === undefined) throw new Error(`endpoint ${endpoint.index} is not a WebSocket endpoint`);
    this.index = endpoint.index;
    this.timeoutMs = endpoint.timeoutMs;
    this.intervalMs = ws.intervalMs;
    this.subprotocols = ws.subprotocols;
    this.extract = endpoint.extract;
    this.keepHeaders = endpoint.extract.some((e) => e.from === 'header');
    this.keepReply = readsBody(endpoint.extract);
    this.#origin = endpoint.origin;
    this.#path = compileTemplate(endpoint.path);
    this.#headerNames = endpoint.headers.map((h) => h.name);
    this.#headerValues = endpoint.headers.map((h) => compileTemplate(h.value));
    this.ownAuthorization = this.#headerNames.some((n) => n.toLowerCase() === 'authorization');
    const values = this.#headerValues;
    this.#staticHeaders = values.every((v) => typeof v === 'string')
      ? Object.fromEntries(this.#headerNames.map((name, i) => [name, values[i] as string]))
      : undefined;
    this.#messages = ws.messages.map((m) =>
      m.kind === 'text' ? { text: compileTemplate(m.text) } : { bytes: Buffer.from(m.bytes) },
    );
    this.messageCount = this.#messages.length;
  }

  /** The url and headers of one session, `authorization` added; undefined when a variable is missing. */
  target(
    vars: VariableStore,
    random: Random,
    authorization: string | undefined,
  ): SessionTarget | undefined {
    const path = render(this.#path, vars, random);
    if (path === undefined) return undefined;
    const url = this.#origin + path;
    if (this.#staticHeaders !== undefined && authorization === undefined)
      return { url, headers: this.#staticHeaders };
    // No prototype: a header name can never reach Object.prototype.
    const headers = Object.create(null) as Record<string, string>;
    for (let i = 0; i < this.#headerNames.length; i++) {
      const value = render(this.#headerValues[i]!, vars, random);
      if (value === undefined) return undefined;
      headers[this.#headerNames[i]!] = value;
    }
    if (authorization !== undefined) headers.authorization = authorization;
    return { url, headers };
  }

  /** Message `i` filled from the variables as they are now; undefined when one is missing. */
  message(i: number, vars: VariableStore, random: Random): SessionPayload | undefined {
    const message = this.#messages[i]!;
    return message.bytes ?? render(message.text, vars, random);
  }
}
