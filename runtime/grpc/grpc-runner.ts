/**
 * gRPC endpoints' calls (docs/grpc.md): an endpoint whose url is grpc:// or grpcs:// makes, per
 * permit, one call of its method (grpc-call.ts) on its virtual user's client of that address
 * (one HTTP/2 connection per user and address, as HTTP keeps one per user and origin):
 *
 *   (a) render its messages and metadata (a placeholder without a value: not sent,
 *       missing_variable)
 *   (b) call, under the endpoint's timeout as the call's deadline
 *   (c) read the last message received with the endpoint's extractors (JSON text of the decoded
 *       message; header extractors read the response's metadata)
 *   (d) record it: one request of its endpoint (failed as grpc_status when its code is not one
 *       of `expect.grpc_status`, timeout on DEADLINE_EXCEEDED, extract_error), and the grpc_*
 *       metrics
 *
 * Protos are loaded once per segment by @grpc/proto-loader, with validation's options. A call is
 * never retried.
 */
import { loadSync } from '@grpc/proto-loader';
import type { Client, Metadata } from '@grpc/grpc-js';
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import { PROTO_LOAD_OPTIONS, type GrpcPlan } from '../../model/plan/grpc-plan.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import type { Recorder } from '../metrics/recorder.js';
import { runExtractors } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import { unsentCause } from '../vars/unsent-cause.js';
import type { VariableStore } from '../vars/variable-store.js';
import type { SessionOutcome, SessionRunner } from '../ws/session-runner.js';
import type { VirtualUser } from '../user/virtual-user.js';
import { callGrpc, type GrpcCallResult, type GrpcMethod } from './grpc-call.js';
import { grpcClient, type GrpcTransport } from './grpc-channel.js';

/** gRPC's DEADLINE_EXCEEDED and UNAVAILABLE. */
const DEADLINE_EXCEEDED = 4;
const UNAVAILABLE = 14;

/** What calls need from their segment. */
export interface GrpcDeps {
  readonly endpoints: readonly EndpointPlan[];
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  readonly transport: GrpcTransport;
}

/** An endpoint's call, compiled once. */
interface CompiledCall {
  readonly endpoint: EndpointPlan;
  readonly plan: GrpcPlan;
  readonly method: GrpcMethod;
  readonly messages: readonly CompiledTemplate[];
  readonly metadata: readonly (readonly [string, CompiledTemplate])[];
}

/** The call runner of a plan; undefined when no endpoint is a gRPC endpoint. */
export function createGrpcRunner(deps: GrpcDeps): SessionRunner | undefined {
  if (!deps.endpoints.some((e) => e.grpc !== undefined)) return undefined;
  return new GrpcRunner(deps);
}

/** Runs the calls of a segment's gRPC endpoints. */
class GrpcRunner implements SessionRunner {
  readonly #deps: GrpcDeps;
  readonly #calls: readonly (CompiledCall | undefined)[];
  /** Each virtual user's clients, by address and security. */
  readonly #clients = new WeakMap<VirtualUser, Map<string, Client>>();
  readonly #all = new Set<Client>();

  constructor(deps: GrpcDeps) {
    this.#deps = deps;
    const loaded = new Map<string, ReturnType<typeof loadSync>>();
    this.#calls = deps.endpoints.map((endpoint) => {
      const plan = endpoint.grpc;
      if (plan === undefined) return undefined;
      let definition = loaded.get(plan.protoFile);
      if (definition === undefined) {
        const includeDirs = [...plan.includeDirs];
        definition = loadSync(plan.protoFile, { ...PROTO_LOAD_OPTIONS, includeDirs });
        loaded.set(plan.protoFile, definition);
      }
      const [service, name] = plan.method.split('/') as [string, string];
      const methods = definition[service] as unknown as Record<string, GrpcMethod>;
      return {
        endpoint,
        plan,
        method: methods[name]!,
        messages: plan.messages.map(compileTemplate),
        metadata: plan.metadata.map((m) => [m.name, compileTemplate(m.value)] as const),
      };
    });
  }

  /** Closes every client: calls under way end with their status, no new one starts. */
  stop(): void {
    for (const client of this.#all) client.close();
    this.#all.clear();
  }

  async run(vu: VirtualUser, index: number, intendedUs: number): Promise<SessionOutcome> {
    const call = this.#calls[index];
    if (call === undefined) return this.#unsent(index, 'invalid_request', undefined);
    const rendered = renderCall(call, vu);
    if (rendered === undefined) return this.#unsent(index, 'missing_variable', vu.vars);
    const { recorder, now } = this.#deps;
    const startUs = now();
    const result = await callGrpc(this.#client(vu, call.plan), {
      kind: call.plan.kind,
      method: call.method,
      messages: rendered.messages,
      metadata: rendered.metadata,
      timeoutMs: call.endpoint.timeoutMs,
    });
    const endUs = now();
    const kind = this.#judge(call, result, vu);
    // gRPC answers over HTTP 200; UNAVAILABLE without headers is the channel's own (no server).
    const status = result.headers === undefined && result.code === UNAVAILABLE ? 0 : 200;
    recorder.recordRequest(index, status, kind, startUs, endUs, intendedUs, 0, 0);
    recorder.recordTrend(FIGURE.grpc_req_duration, index, endUs - startUs);
    recorder.recordCount(FIGURE.grpc_reqs, index);
    if (result.sent > 0) recorder.recordCount(FIGURE.grpc_streams_msgs_sent, index, result.sent);
    if (result.received > 0)
      recorder.recordCount(FIGURE.grpc_streams_msgs_received, index, result.received);
    return { ok: kind === undefined, status, error: kind };
  }

  /** The call's failure kind: its status unexpected, its deadline passed, an extractor failed. */
  #judge(call: CompiledCall, result: GrpcCallResult, vu: VirtualUser): ErrorKind | undefined {
    if (!call.plan.expected.includes(result.code))
      return result.code === DEADLINE_EXCEEDED ? 'timeout' : 'grpc_status';
    const extract = call.endpoint.extract;
    if (extract.length === 0) return undefined;
    const text = result.message === undefined ? undefined : JSON.stringify(result.message);
    return runExtractors(extract, text, rawHeaders(result.headers), vu.vars, vu.random);
  }

  /** The user's client of the call's address, made on its first call. */
  #client(vu: VirtualUser, plan: GrpcPlan): Client {
    let clients = this.#clients.get(vu);
    if (clients === undefined) {
      clients = new Map<string, Client>();
      this.#clients.set(vu, clients);
    }
    const key = `${plan.tls ? 's' : ''}${plan.address}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = grpcClient(plan.address, plan.tls, this.#deps.transport);
      clients.set(key, client);
      this.#all.add(client);
    }
    return client;
  }

  /** A call not made; `missing` holds the variables when one of them had no value. */
  #unsent(index: number, kind: ErrorKind, missing: VariableStore | undefined): SessionOutcome {
    this.#deps.recorder.recordUnsent(kind, unsentCause(this.#deps.endpoints[index]!, missing));
    return { ok: false, status: 0, error: kind };
  }
}

/** The call's messages and metadata rendered; undefined when a placeholder had no value. */
function renderCall(
  call: CompiledCall,
  vu: VirtualUser,
): { messages: object[]; metadata: [string, string][] } | undefined {
  const messages: object[] = [];
  for (const template of call.messages) {
    const text = render(template, vu.vars, vu.random);
    if (text === undefined) return undefined;
    messages.push(JSON.parse(text) as object);
  }
  const metadata: [string, string][] = [];
  for (const [name, template] of call.metadata) {
    const value = render(template, vu.vars, vu.random);
    if (value === undefined) return undefined;
    metadata.push([name, value]);
  }
  return { messages, metadata };
}

/** Response metadata as the extractors' raw headers (name, value, …), text values only. */
function rawHeaders(metadata: Metadata | undefined): Buffer[] | null {
  if (metadata === undefined) return null;
  const raw: Buffer[] = [];
  for (const [name, values] of Object.entries(metadata.getMap()))
    if (typeof values === 'string') raw.push(Buffer.from(name), Buffer.from(values));
  return raw;
}
