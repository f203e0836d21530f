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
import type { createSocketioRunner } from '../socketio/socketio-session.js';
import type { createGrpcRunner } from '../grpc/grpc-runner.js';
import { joinSessionRunners } from './session-runners.js';

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
   * A runner of what is not an HTTP request, recording into `recorder` (one per scenario):
   * WebSocket and Socket.IO sessions and gRPC calls; undefined without any of them.
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
  /** socketio-session.ts (and socket.io-client), for a plan with Socket.IO endpoints. */
  readonly socketio: { readonly createSocketioRunner: typeof createSocketioRunner } | undefined;
  /** grpc-runner.ts (and @grpc/grpc-js), for a plan with grpc:// endpoints. */
  readonly grpc: { readonly createGrpcRunner: typeof createGrpcRunner } | undefined;
}

/**
 * Imports what `plan` needs: each protocol's modules (and its client library) only for its
 * endpoints, since loading them costs every start milliseconds.
 */
export async function importServiceModules(plan: Plan): Promise<ServiceModules> {
  const uses = (protocol: string) => plan.graph.endpoints.some((e) => e.protocol === protocol);
  const [ws, socketio, grpc] = await Promise.all([
    uses('ws')
      ? Promise.all([import('../ws/ws-session.js'), import('../ws/ws-transport.js')]).then(
          ([{ createSessionRunner }, { WsTransport }]) => ({ createSessionRunner, WsTransport }),
        )
      : undefined,
    uses('socketio') ? import('../socketio/socketio-session.js') : undefined,
    uses('grpc') ? import('../grpc/grpc-runner.js') : undefined,
  ]);
  return { ws, socketio, grpc };
}

/** Builds the segment's services. */
export function createSegmentServices(
  context: ServiceContext,
  modules: ServiceModules,
): SegmentServices {
  const auth = authProvider(context);
  const ws = sessionRunners(context, auth, modules.ws);
  const { socketio, grpc } = modules;
  if (socketio === undefined && grpc === undefined) return { auth, sessions: ws };
  const { endpoints } = context.plan.graph;
  const { insecure, tls } = context.plan;
  const { now } = context;
  return {
    auth,
    sessions: (recorder) =>
      joinSessionRunners(endpoints, {
        ws: ws(recorder),
        socketio: socketio?.createSocketioRunner({
          endpoints,
          recorder,
          now,
          auth,
          connection: { insecure, tls },
        }),
        grpc: grpc?.createGrpcRunner({ endpoints, recorder, now, transport: { insecure, tls } }),
      }),
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
