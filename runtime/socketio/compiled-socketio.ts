/**
 * A Socket.IO endpoint compiled once into what its sessions need (STYLE.md rule 8): the url,
 * header, auth and query templates, and its steps with their data templates and event matches.
 * A session renders only the dynamic parts.
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { SocketioPlan, SocketioStepPlan } from '../../model/plan/socketio-plan.js';
import type { Random } from '../../model/random.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';
import { FrameMatch } from '../ws/frame-match.js';

/** A step with its data and match compiled. */
export type CompiledSocketioStep =
  | {
      readonly kind: 'emit';
      readonly event: string;
      readonly data: CompiledTemplate | undefined;
      readonly ack: FrameMatch | undefined;
      readonly timeoutMs: number;
      readonly extract: Extract<SocketioStepPlan, { kind: 'emit' }>['extract'];
    }
  | (Omit<Extract<SocketioStepPlan, { kind: 'receive' }>, 'match'> & { readonly match: FrameMatch })
  | (Omit<Extract<SocketioStepPlan, { kind: 'listen' }>, 'match'> & { readonly match: FrameMatch })
  | Extract<SocketioStepPlan, { kind: 'pause' }>;

/** What one session connects with, rendered from the variables as they are now. */
export interface RenderedTarget {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly auth: Record<string, unknown> | undefined;
  readonly query: Record<string, string>;
}

/** The prebuilt parts of one Socket.IO endpoint. */
export class CompiledSocketio {
  readonly endpoint: EndpointPlan;
  readonly plan: SocketioPlan;
  readonly steps: readonly CompiledSocketioStep[];
  /** The index of the last step that waits for events (-1: none): after it, a server may disconnect. */
  readonly lastWait: number;
  /** The endpoint sets its own Authorization header: the auth provider is not asked. */
  readonly ownAuthorization: boolean;
  readonly #headers: readonly { readonly name: string; readonly value: CompiledTemplate }[];
  readonly #auth: CompiledTemplate | undefined;
  readonly #query: readonly { readonly name: string; readonly value: CompiledTemplate }[];

  constructor(endpoint: EndpointPlan) {
    const plan = endpoint.socketio;
    if (plan === undefined)
      throw new Error(`endpoint ${endpoint.index} is not a Socket.IO endpoint`);
    this.endpoint = endpoint;
    this.plan = plan;
    this.steps = plan.steps.map(compileStep);
    this.lastWait = plan.steps.findLastIndex((step) => step.kind !== 'pause');
    this.#headers = endpoint.headers.map((h) => ({
      name: h.name,
      value: compileTemplate(h.value),
    }));
    this.ownAuthorization = this.#headers.some((h) => h.name.toLowerCase() === 'authorization');
    this.#auth = plan.auth === undefined ? undefined : compileTemplate(plan.auth);
    this.#query = plan.query.map((q) => ({ name: q.name, value: compileTemplate(q.value) }));
  }

  /** The session's target, `authorization` added; undefined when a variable is missing. */
  target(
    vars: VariableStore,
    random: Random,
    authorization: string | undefined,
  ): RenderedTarget | undefined {
    // No prototype: a header or query name can never reach Object.prototype.
    const headers = Object.create(null) as Record<string, string>;
    for (const { name, value } of this.#headers) {
      const text = render(value, vars, random);
      if (text === undefined) return undefined;
      headers[name] = text;
    }
    if (authorization !== undefined) headers.authorization = authorization;
    const query = Object.create(null) as Record<string, string>;
    for (const { name, value } of this.#query) {
      const text = render(value, vars, random);
      if (text === undefined) return undefined;
      query[name] = text;
    }
    let auth: Record<string, unknown> | undefined;
    if (this.#auth !== undefined) {
      const text = render(this.#auth, vars, random);
      if (text === undefined) return undefined;
      auth = JSON.parse(text) as Record<string, unknown>;
    }
    return { url: new URL(this.plan.namespace, this.endpoint.origin).href, headers, auth, query };
  }
}

/** An emit's arguments rendered: [] without data; undefined when a variable is missing. */
export function renderData(
  data: CompiledTemplate | undefined,
  vars: VariableStore,
  random: Random,
): unknown[] | undefined {
  if (data === undefined) return [];
  const text = render(data, vars, random);
  return text === undefined ? undefined : [JSON.parse(text)];
}

function compileStep(step: SocketioStepPlan): CompiledSocketioStep {
  switch (step.kind) {
    case 'emit':
      return {
        ...step,
        data: step.data === undefined ? undefined : compileTemplate(step.data),
        ack: step.ack === undefined ? undefined : new FrameMatch(step.ack),
      };
    case 'receive':
      return { ...step, match: new FrameMatch(step.match) };
    case 'listen':
      return { ...step, match: new FrameMatch(step.match) };
    case 'pause':
      return step;
  }
}
