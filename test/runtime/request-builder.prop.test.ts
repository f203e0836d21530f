// One request builder (model/request/request-builder.ts): a YAML endpoint and a TypeScript
// scenario's http call said with the same parts — method, path, query, the run's and the
// request's headers, a text, JSON, form or multipart body, a stream kind — become the same
// request: the same method, target, headers in the same order, and the same body.
import t from 'tap';
import { deepStrictEqual } from 'node:assert';
import fc from 'fast-check';
import { compileRunHeaders } from '../../dsl/compile/scenario-graph.js';
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { Template } from '../../model/plan/template.js';
import { scriptRequest, type HttpArgs } from '../../runtime/script/script-request.js';
import { loadFixture } from '../helpers/plan-fixture.js';

const TARGET = 'http://127.0.0.1:9';

/** Literal text of a template (these requests have no placeholders). */
function text(template: Template | undefined): string {
  return (template ?? []).map((part) => (typeof part === 'string' ? part : '?')).join('');
}

/** What a request puts on the wire, from its plan. */
function wire(plan: EndpointPlan) {
  const query = text(plan.query);
  const path = text(plan.path);
  const joint = path.includes('?') ? '&' : '?';
  return {
    method: plan.method,
    target: plan.origin + path + (query === '' ? '' : joint + query),
    headers: plan.headers.map((h) => [h.name.toLowerCase(), text(h.value)]),
    body:
      plan.body === undefined
        ? undefined
        : plan.body.kind === 'text'
          ? text(plan.body.text)
          : plan.body.kind === 'bytes'
            ? [...plan.body.bytes]
            : plan.body.parts.map((p) => (p.kind === 'field' ? [p.name, text(p.value)] : p.name)),
    stream: plan.stream?.kind,
  };
}

const token = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const value = fc.stringMatching(/^[A-Za-z0-9 ,;=/&.-]{0,10}$/);
const headerName = fc.constantFrom('X-A', 'x-a', 'X-B', 'Accept', 'User-Agent', 'Content-Type');
const headers = fc.dictionary(headerName, value, { maxKeys: 3 });
const pairs = fc.array(fc.tuple(token, value), { maxLength: 3 });

/** A request's parts: one of each kind of body, at most. */
const parts = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
  path: fc.array(token, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  ownQuery: fc.option(fc.tuple(token, token), { nil: undefined }),
  query: pairs,
  runHeaders: headers,
  headers,
  body: fc.oneof(
    fc.constant({ kind: 'none' as const }),
    value.map((text) => ({ kind: 'text' as const, text })),
    fc.dictionary(token, value, { maxKeys: 3 }).map((json) => ({ kind: 'json' as const, json })),
    pairs.map((form) => ({ kind: 'form' as const, form })),
    pairs.map((fields) => ({ kind: 'multipart' as const, fields })),
  ),
  stream: fc.constantFrom(undefined, 'sse', 'chunks'),
});

type Parts = typeof parts extends fc.Arbitrary<infer P> ? P : never;

/** The parts as a YAML endpoint says them (a list's values under one name, as the call's pairs). */
function yamlEndpoint(p: Parts): Record<string, unknown> {
  const url = p.ownQuery === undefined ? p.path : `${p.path}?${p.ownQuery[0]}=${p.ownQuery[1]}`;
  const grouped = (list: readonly [string, string][]) => {
    const map: Record<string, string[]> = {};
    for (const [k, v] of list) (map[k] ??= []).push(v);
    return map;
  };
  const b = p.body;
  return {
    name: 'e',
    method: p.method,
    url,
    headers: p.headers,
    ...(p.query.length === 0 ? {} : { query: grouped(p.query) }),
    ...(b.kind === 'text' ? { body: b.text } : {}),
    ...(b.kind === 'json' ? { body: b.json } : {}),
    ...(b.kind === 'form' && b.form.length > 0 ? { form: grouped(b.form) } : {}),
    ...(b.kind === 'multipart' && b.fields.length > 0
      ? { multipart: Object.fromEntries(b.fields) }
      : {}),
    ...(p.stream === undefined ? {} : { stream: p.stream }),
  };
}

/** The same parts as the bootstrap sends a call's arguments. */
function callArgs(p: Parts, endpoint: Record<string, unknown>): HttpArgs {
  const b = p.body;
  const group = (m: unknown) =>
    Object.entries((m ?? {}) as Record<string, string[]>).flatMap(([k, vs]) =>
      vs.map((v): [string, string] => [k, v]),
    );
  return {
    method: p.method,
    url: endpoint.url as string,
    body: b.kind === 'text' ? b.text : b.kind === 'json' ? JSON.stringify(b.json) : undefined,
    json: b.kind === 'json',
    query: group(endpoint.query),
    form: endpoint.form === undefined ? undefined : group(endpoint.form),
    multipart:
      endpoint.multipart === undefined
        ? undefined
        : Object.entries(endpoint.multipart as Record<string, string>).map(([name, data]) => ({
            name,
            data,
            file: false,
          })),
    headers: p.headers,
    timeout: undefined,
    name: 'e',
    group: undefined,
    tags: undefined,
    redirects: undefined,
    expect: undefined,
    stream: p.stream,
    idleTimeout: undefined,
  };
}

t.test('a YAML endpoint and a scripted call of the same parts are the same request', async (t) => {
  const dir = t.testdir({});
  await fc.assert(
    fc.asyncProperty(parts, async (p) => {
      const endpoint = yamlEndpoint(p);
      const loaded = await loadFixture(dir, {
        target: TARGET,
        headers: p.runHeaders,
        endpoints: [endpoint],
      });
      const yaml = loaded.plan.graph.endpoints[0]!;
      const runHeaders = compileRunHeaders(loaded.config, 'barrage/test', () => '');
      const args = callArgs(p, endpoint);
      const script = scriptRequest(args, new URL(args.url, TARGET), [], {
        index: 0,
        name: 'e',
        tags: {},
        runHeaders,
        verify: undefined,
        timeoutMs: yaml.timeoutMs,
        maxRedirects: yaml.maxRedirects,
      });
      // Thrown, so that fast-check shrinks a difference to its smallest parts.
      deepStrictEqual(wire(script), wire(yaml));
    }),
    { numRuns: 60 },
  );
  t.pass('60 sets of parts built alike');
});
