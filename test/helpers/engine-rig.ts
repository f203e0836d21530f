/**
 * The engine's core assembled in process, as runtime/segment/scenario-run.ts assembles it: a
 * Recorder, a RequestPath, a VirtualUser and the plan's CompiledRequests, from a configuration
 * compiled through dsl/ (segment-run.ts's planOf); and a real node:http target on 127.0.0.1:0
 * that keeps every request it received and answers by the test's routes. Both end in teardown.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Test } from 'tap';
import type { Plan } from '../../model/plan/plan.js';
import type { AuthProvider } from '../../runtime/auth/auth-provider.js';
import { RetryBudget } from '../../runtime/failure/retry-budget.js';
import { AllowedHosts } from '../../runtime/http/allowed-hosts.js';
import { compileRequests, type CompiledRequest } from '../../runtime/http/compiled-request.js';
import { importSseReader, readsSse } from '../../runtime/http/exchange.js';
import { Recorder } from '../../runtime/metrics/recorder.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import { seededRandom } from '../../model/random.js';
import { NO_INTENDED_TIME } from '../../runtime/schedule/permit-source.js';
import { importJsonPath, readsJsonPath } from '../../runtime/vars/extract.js';
import { RequestPath } from '../../runtime/worker/request-path.js';
import { clientOptionsOf, VirtualUser } from '../../runtime/user/virtual-user.js';
import { planOf } from './segment-run.js';

/** One request as the target received it. */
export interface Received {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Answers one request; `n` is how many requests to the same path came before it. */
export type Route = (req: Received, res: ServerResponse, n: number) => void;

/** A running target and what it received, in order. */
export interface Target {
  readonly url: string;
  /** host:port, as AllowedHosts and `allowed_hosts` read it. */
  readonly host: string;
  readonly received: Received[];
  /** The requests received at a path (query excluded). */
  at(path: string): Received[];
}

/** A target on 127.0.0.1:0 answering by `routes` (path without query), 404 elsewhere. */
export async function startTarget(
  t: Test,
  routes: Readonly<Record<string, Route>>,
): Promise<Target> {
  const received: Received[] = [];
  const pathOf = (url: string): string => url.split('?')[0]!;
  const at = (path: string): Received[] => received.filter((r) => pathOf(r.url) === path);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const one: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const n = at(pathOf(one.url)).length;
      received.push(one);
      const route = routes[pathOf(one.url)];
      if (route === undefined) res.writeHead(404).end('no route');
      else route(one, res, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, received, at };
}

/** A route answering `status` with a text body and optional headers. */
export function answer(
  status: number,
  body = '',
  headers: Readonly<Record<string, string>> = {},
): Route {
  return (_req, res) => res.writeHead(status, headers).end(body);
}

/** What a rig is built with besides its configuration. */
export interface RigOptions {
  readonly auth?: AuthProvider;
  /** Read by the request path before each retry; default: never stopping. */
  readonly stopping?: () => boolean;
  /** A TypeScript scenario's: the recorder starts with no endpoints, its calls add theirs. */
  readonly scripted?: boolean;
}

/** The request path of one virtual user over a compiled plan. */
export interface PathRig {
  readonly plan: Plan;
  readonly recorder: Recorder;
  readonly path: RequestPath;
  readonly vu: VirtualUser;
  readonly requests: readonly CompiledRequest[];
  /** µs since the rig was built. */
  readonly now: () => number;
  /** Sends endpoint `index` through the request path; resolves with its `done(ok)`. */
  send(index: number): Promise<boolean>;
  /** The recorder's figures so far. */
  snapshot(): ShardSnapshot;
}

/** Compiles `raw` (seed 7, one thread) and assembles its request path for one virtual user. */
export async function pathRig(
  t: Test,
  raw: Record<string, unknown>,
  options: RigOptions = {},
): Promise<PathRig> {
  const plan = planOf(raw);
  // What run-segment.ts imports before dispatch for the plans that need it.
  if (readsSse(plan)) await importSseReader();
  if (readsJsonPath(plan)) await importJsonPath();
  const startUs = performance.now() * 1000;
  const now = (): number => performance.now() * 1000 - startUs;
  const recorder = new Recorder({
    endpointCount: options.scripted === true ? 0 : plan.graph.endpoints.length,
    segment: plan.segment,
    startedAt: Date.now(),
    openModel: false,
  });
  const retry = plan.retry;
  const requests = compileRequests(plan.graph);
  const path = new RequestPath({
    requests,
    recorder,
    now,
    auth: options.auth,
    retry,
    budget:
      retry === undefined ? undefined : new RetryBudget(retry.budget, retry.minRetriesPerSec, 0),
    stopping: options.stopping ?? (() => false),
    cookies: plan.cookies,
    hosts: AllowedHosts.of(plan),
  });
  const vu = new VirtualUser(1, seededRandom(1), clientOptionsOf(plan));
  t.teardown(() => vu.close());
  const send = (index: number): Promise<boolean> =>
    new Promise((resolve, reject) => {
      vu.vars.begin();
      path.send(vu, requests[index]!, index, NO_INTENDED_TIME, resolve, reject);
    });
  return {
    plan,
    recorder,
    path,
    vu,
    requests,
    now,
    send,
    snapshot: () => recorder.snapshot(now()),
  };
}
