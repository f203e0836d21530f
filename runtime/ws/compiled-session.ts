/**
 * A ws:// or wss:// endpoint compiled once into what its sessions need (STYLE.md rule 8): the url
 * and header templates, its steps with their messages as constant strings, render functions or
 * bytes, and their frame matches. A session renders only the dynamic parts.
 */
import type { EndpointPlan, ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import type { WsMessagePlan, WsStepPlan } from '../../model/plan/ws-session-plan.js';
import type { Random } from '../../model/random.js';
import { readsBody } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';
import { FrameMatch } from './frame-match.js';

/** Where a session connects and with which handshake headers. */
export interface SessionTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A message ready to send: text (UTF-8) or bytes. */
export type SessionPayload = string | Buffer;

/** One configured message: a text template or constant bytes. */
export type CompiledMessage =
  | { readonly text: CompiledTemplate; readonly bytes?: undefined }
  | { readonly text?: undefined; readonly bytes: Buffer };

/** A step of the session with its message and matches compiled. */
export type CompiledStep =
  | {
      readonly kind: 'send';
      readonly message: CompiledMessage;
      readonly reply: FrameMatch | undefined;
      readonly timeoutMs: number;
      readonly extract: readonly ExtractorPlan[];
    }
  | {
      readonly kind: 'receive';
      readonly match: FrameMatch;
      readonly timeoutMs: number;
      readonly extract: readonly ExtractorPlan[];
    }
  | { readonly kind: 'listen'; readonly durationMs: number; readonly match: FrameMatch }
  | { readonly kind: 'pause'; readonly durationMs: number };

/** The prebuilt parts of one WebSocket endpoint. */
export class CompiledSession {
  readonly index: number;
  readonly name: string;
  readonly timeoutMs: number;
  readonly subprotocols: readonly string[];
  /** The endpoint's extractors: header ones read the handshake, the others every frame taken. */
  readonly extract: readonly ExtractorPlan[];
  /** Header extractors read the handshake response (101), so its headers must be kept. */
  readonly keepHeaders: boolean;
  /** The endpoint's extractors read frames (json, regex, css). */
  readonly readsFrames: boolean;
  readonly steps: readonly CompiledStep[];
  /** Steps as planned (their labels in reports). */
  readonly plannedSteps: readonly WsStepPlan[];
  /** The index of the last step that waits for frames (-1: none): after it, a server may close. */
  readonly lastWait: number;
  /** The endpoint sets its own Authorization header: the auth provider is not asked. */
  readonly ownAuthorization: boolean;
  readonly #origin: string;
  readonly #path: CompiledTemplate;
  readonly #headerNames: readonly string[];
  readonly #headerValues: readonly CompiledTemplate[];
  /** All headers when none has a placeholder (then shared by every session without auth). */
  readonly #staticHeaders: Readonly<Record<string, string>> | undefined;

  constructor(endpoint: EndpointPlan) {
    const ws = endpoint.ws;
    if (ws === undefined) throw new Error(`endpoint ${endpoint.index} is not a WebSocket endpoint`);
    this.index = endpoint.index;
    this.name = endpoint.name;
    this.timeoutMs = endpoint.timeoutMs;
    this.subprotocols = ws.subprotocols;
    this.extract = endpoint.extract;
    this.keepHeaders = endpoint.extract.some((e) => e.from === 'header');
    this.readsFrames = readsBody(endpoint.extract);
    this.plannedSteps = ws.steps;
    this.steps = ws.steps.map(compileStep);
    this.lastWait = ws.steps.findLastIndex((step) => step.kind !== 'pause');
    this.#origin = endpoint.origin;
    this.#path = compileTemplate(endpoint.path);
    this.#headerNames = endpoint.headers.map((h) => h.name);
    this.#headerValues = endpoint.headers.map((h) => compileTemplate(h.value));
    this.ownAuthorization = this.#headerNames.some((n) => n.toLowerCase() === 'authorization');
    const values = this.#headerValues;
    this.#staticHeaders = values.every((v) => typeof v === 'string')
      ? Object.fromEntries(this.#headerNames.map((name, i) => [name, values[i] as string]))
      : undefined;
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
}

/** A message filled from the variables as they are now; undefined when one is missing. */
export function renderMessage(
  message: CompiledMessage,
  vars: VariableStore,
  random: Random,
): SessionPayload | undefined {
  return message.bytes ?? render(message.text, vars, random);
}

function compileMessage(message: WsMessagePlan): CompiledMessage {
  return message.kind === 'text'
    ? { text: compileTemplate(message.text) }
    : { bytes: Buffer.from(message.bytes) };
}

function compileStep(step: WsStepPlan): CompiledStep {
  switch (step.kind) {
    case 'send':
      return {
        ...step,
        message: compileMessage(step.message),
        reply: step.reply === undefined ? undefined : new FrameMatch(step.reply),
      };
    case 'receive':
      return { ...step, match: new FrameMatch(step.match) };
    case 'listen':
      return { ...step, match: new FrameMatch(step.match) };
    case 'pause':
      return step;
  }
}
