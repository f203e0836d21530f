/**
 * Services a segment builds for itself from the plan (each worker thread or child process builds
 * its own: one auth provider per thread, as the spec's provider is per run and providers cannot
 * cross threads). Modules that implement a protocol or an auth scheme plug in here.
 */
import type { RunFailure } from '../../model/errors/run-failure.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Plan } from '../../model/plan/plan.js';
import { staticAuthProvider, type AuthProvider } from '../auth/auth-provider.js';
import { OAuth2Provider } from '../auth/oauth2-provider.js';
import type { Recorder } from '../metrics/recorder.js';
import { deriveSeed, seededRandom } from '../../model/random.js';
import type { SessionRunner } from '../ws/session-runner.js';
import type { createSessionRunner } from '../ws/ws-session.js';
import type { WsTransport } from '../ws/ws-transport.js';
import type { createGrpcRunner } from '../grpc/grpc-runner.js';
import { byProtocol } from './protocol-runners.js';

/** What services may use: the shard, the segment clock, and a way to end the run with an error. */
export interface ServiceContext {
  readonly plan: Plan;
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** Stops the run: it ends as failed (its message is shown to the user, so no secrets). */
  readonly fail: (failure: RunFailure) => void;
}

/** The services of one segment. */
export interface SegmentServices {
  readonly auth: AuthProvider | undefined;
  /**
   * A runner of WebSocket sessions and gRPC calls recording into `recorder` (one per scenario);
   * undefined without ws:// and grpc:// endpoints.
   */
  readonly sessions: (recorder: Recorder) => SessionRunner | undefined;
}

/** The protocol modules a plan needs, imported before its segment starts (importServiceModules). */
export interface ServiceModules {
  /** ws-session.ts and ws-transport.ts, for a plan with ws:// endpoints. */
  readonly ws:
    | {
        readonly createSessionRunner: typeof createSessionRunner;
        readonly WsTransport: typeof WsTransport;
      }
    | undefined;
  /** grpc-runner.ts (and @grpc/grpc-js), for a plan with grpc:// endpoints. */
  readonly grpc: { readonly createGrpcRunner: typeof createGrpcRunner } | undefined;
}

/**
 * Imports what `plan` needs: the WebSocket modules (and ws) only for ws:// endpoints, the gRPC
 * runner (and @grpc/grpc-js) only for grpc:// ones, since loading them costs every start a few
 * milliseconds.
 */
export async function importServiceModules(plan: Plan): Promise<ServiceModules> {
  const endpoints = plan.graph.endpoints;
  const [ws, grpc] = await Promise.all([
    endpoints.some((e) => e.protocol === 'ws') ? importWs() : undefined,
    endpoints.some((e) => e.protocol === 'grpc') ? import('../grpc/grpc-runner.js') : undefined,
  ]);
  return { ws, grpc: grpc === undefined ? undefined : { createGrpcRunner: grpc.createGrpcRunner } };
}

async function importWs(): Promise<NonNullable<ServiceModules['ws']>> {
  const [{ createSessionRunner }, { WsTransport }] = await Promise.all([
    import('../ws/ws-session.js'),
    import('../ws/ws-transport.js'),
  ]);
  return { createSessionRunner, WsTransport };
}

/** Builds the segment's services. */
export function createSegmentServices(
  context: ServiceContext,
  modules: ServiceModules,
): SegmentServices {
  const auth = authProvider(context);
  const ws = sessionRunners(context, auth, modules.ws);
  const grpc = modules.grpc;
  if (grpc === undefined) return { auth, sessions: ws };
  const { insecure, tls } = context.plan;
  return {
    auth,
    sessions: (recorder) =>
      byProtocol(
        context.plan.graph.endpoints,
        ws(recorder),
        grpc.createGrpcRunner({
          endpoints: context.plan.graph.endpoints,
          recorder,
          now: context.now,
          transport: { insecure, tls },
        }),
      ),
  };
}

/** The segment's session runners, one transport (TLS settings, proxies) shared by them all. */
function sessionRunners(
  context: ServiceContext,
  auth: AuthProvider | undefined,
  ws: ServiceModules['ws'],
): SegmentServices['sessions'] {
  if (ws === undefined) return () => undefined;
  const { insecure, tls, proxy, timeoutMs } = context.plan;
  const transport = new ws.WsTransport({ insecure, tls, proxy, timeoutMs });
  return (recorder) =>
    ws.createSessionRunner({
      endpoints: context.plan.graph.endpoints,
      recorder,
      now: context.now,
      auth,
      transport,
    });
}

/** Seed stream of the token retry jitter (distinct from the workers' and the feeder's). */
const AUTH_SEED = 0xa07;

function authProvider(context: ServiceContext): AuthProvider | undefined {
  const { plan } = context;
  if (plan.auth === undefined) return undefined;
  if (plan.auth.type !== 'oauth2') return staticAuthProvider(plan.auth);
  return new OAuth2Provider(plan.auth, {
    timeoutMs: plan.timeoutMs,
    insecure: plan.insecure,
    tls: plan.tls,
    proxy: plan.proxy,
    now: context.now,
    random: seededRandom(deriveSeed(plan.seed, plan.segment.index, AUTH_SEED)),
    sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    recordFetch: (ok, us) => context.recorder.recordAuthFetch(ok, us),
    fatal: (message) => context.fail({ code: 'auth_gave_up', message }),
  });
}
