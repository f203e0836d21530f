/**
 * The one request builder: a YAML endpoint (dsl/compile/scenario-graph.ts) and a scenario's http
 * call (runtime/script/script-request.ts) say the same parts, and this turns them into the
 * EndpointPlan the request path sends. Its header rules, once for both:
 *
 *   1. the run's headers in order (the top-level ones, then User-Agent), each replaced in place
 *      by the request's own header of the same name, in any case;
 *   2. the request's other own headers, in order;
 *   3. the defaults of its kind (defaultHeaders(): Accept-Encoding for a buffered response, a
 *      stream's Accept), unless set;
 *   4. the content type its body needs (application/json for a JSON body, form fields'
 *      application/x-www-form-urlencoded), unless set;
 *   5. a multipart body's Content-Type is its encoder's, with the boundary: any other is dropped.
 */
import {
  defaultHeaders,
  type BodyPlan,
  type EndpointMetricPlan,
  type EndpointPlan,
  type ExtractorPlan,
  type HeaderPlan,
  type StreamPlan,
  type ThinkRange,
  type UrlFromVariablePlan,
} from '../plan/endpoint-plan.js';
import type { SocketioPlan } from '../plan/socketio-plan.js';
import type { WsPlan } from '../plan/ws-session-plan.js';
import type { GrpcPlan } from '../plan/grpc-plan.js';
import type { LlmPlan } from '../plan/llm-plan.js';
import type { VerifyPlan } from '../plan/check-plan.js';
import { templateVariables, type Template } from '../plan/template.js';
import type { Tags } from '../metrics/metric-registry.js';

/** What a request body is, for the content type it needs. */
export type BodyType = 'json' | 'form' | 'multipart' | 'text' | 'bytes';

/** The content type each kind of body needs, when it needs one. */
const CONTENT_TYPES: Readonly<Partial<Record<BodyType, string>>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

/** What a request is built from; what only YAML endpoints have is optional. */
export interface RequestParts {
  readonly index: number;
  readonly name: string;
  readonly protocol?: 'http' | 'ws' | 'socketio' | 'grpc';
  readonly method: string;
  readonly origin: string;
  readonly path: Template;
  readonly query?: Template | undefined;
  readonly urlFromVariable?: UrlFromVariablePlan | undefined;
  /** The url as the user wrote it, for display. */
  readonly url: string;
  /** The run's headers, in order: the top-level ones, then User-Agent. */
  readonly runHeaders: readonly HeaderPlan[];
  /** The request's own headers. */
  readonly headers: readonly HeaderPlan[];
  readonly body: BodyPlan | undefined;
  readonly bodyType: BodyType | undefined;
  readonly stream: StreamPlan | undefined;
  readonly llm?: LlmPlan | undefined;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly verify: VerifyPlan | undefined;
  readonly tags: Tags;
  readonly extract?: readonly ExtractorPlan[];
  readonly metrics?: readonly EndpointMetricPlan[];
  readonly setup?: boolean;
  readonly weight?: number;
  readonly think?: ThinkRange | undefined;
  readonly ws?: WsPlan | undefined;
  readonly socketio?: SocketioPlan | undefined;
  readonly grpc?: GrpcPlan | undefined;
  /** Templates besides the url, headers and body whose variables the request needs (a session's). */
  readonly moreTemplates?: readonly Template[];
}

/** The headers of a request by the rules above. */
export function requestHeaders(
  run: readonly HeaderPlan[],
  own: readonly HeaderPlan[],
  bodyType: BodyType | undefined,
  stream: StreamPlan | undefined,
): HeaderPlan[] {
  const byName = new Map<string, HeaderPlan>();
  for (const header of [...run, ...own]) byName.set(header.name.toLowerCase(), header);
  const has = (name: string): boolean => byName.has(name);
  for (const [name, value] of defaultHeaders(stream?.kind))
    if (!has(name)) byName.set(name, { name, value: [value] });
  const type = bodyType === undefined ? undefined : CONTENT_TYPES[bodyType];
  if (type !== undefined && !has('content-type'))
    byName.set('content-type', { name: 'content-type', value: [type] });
  if (bodyType === 'multipart') byName.delete('content-type');
  return [...byName.values()];
}

/** The templates of a body: its text, or its multipart fields and file paths (bytes have none). */
export function bodyTemplates(body: BodyPlan | undefined): Template[] {
  if (body === undefined || body.kind === 'bytes') return [];
  if (body.kind === 'text') return [body.text];
  return body.parts.flatMap((part) =>
    part.kind === 'field' ? [part.value] : part.kind === 'files' ? [part.path] : [],
  );
}

/** The EndpointPlan of a request's parts. */
export function buildRequest(parts: RequestParts): EndpointPlan {
  const headers = requestHeaders(parts.runHeaders, parts.headers, parts.bodyType, parts.stream);
  const templates: Template[] = [
    parts.path,
    ...(parts.query === undefined ? [] : [parts.query]),
    ...headers.map((h) => h.value),
    ...bodyTemplates(parts.body),
    ...(parts.moreTemplates ?? []),
  ];
  return {
    index: parts.index,
    name: parts.name,
    protocol: parts.protocol ?? 'http',
    method: parts.method,
    origin: parts.origin,
    path: parts.path,
    query: parts.query,
    urlFromVariable: parts.urlFromVariable,
    url: parts.url,
    headers,
    body: parts.body,
    extract: parts.extract ?? [],
    metrics: parts.metrics ?? [],
    verify: parts.verify,
    setup: parts.setup ?? false,
    weight: parts.weight ?? 1,
    timeoutMs: parts.timeoutMs,
    stream: parts.stream,
    llm: parts.llm,
    maxRedirects: parts.maxRedirects,
    think: parts.think,
    ws: parts.ws,
    ...(parts.socketio === undefined ? {} : { socketio: parts.socketio }),
    ...(parts.grpc === undefined ? {} : { grpc: parts.grpc }),
    needs: [...new Set(templates.flatMap((t) => templateVariables(t)))],
    tags: parts.tags,
  };
}
