/**
 * Services a segment builds for itself from the plan (each worker thread or child process builds
 * its own: one auth provider per thread, as the spec's provider is per run and providers cannot
 * cross threads). Modules that implement a protocol or an auth scheme plug in here.
 */
import type { Plan } from '../../dsl/plan/plan.js';
import { staticAuthProvider, type AuthProvider } from '../auth/auth-provider.js';
import type { Recorder } from '../metrics/recorder.js';
import type { SessionRunner } from '../worker/iteration.js';
import { createSessionRunner } from '../ws/ws-session.js';

/** What services may use: the shard, the segment clock, and a way to end the run with an error. */
export interface ServiceContext {
  readonly plan: Plan;
  readonly recorder: Recorder;
  /** µs since dispatch start. */
  readonly now: () => number;
  /** Stops the run: it ends as failed with this message (shown to the user, so no secrets). */
  readonly fatal: (message: string) => void;
}

/** The services of one segment. */
export interface SegmentServices {
  readonly auth: AuthProvider | undefined;
  readonly ws: SessionRunner | undefined;
}

/** Builds the segment's services. */
export function createSegmentServices(context: ServiceContext): SegmentServices {
  const auth = context.plan.auth;
  const provider =
    auth === undefined || auth.type === 'oauth2' ? undefined : staticAuthProvider(auth);
  return {
    auth: provider,
    ws: createSessionRunner({
      endpoints: context.plan.graph.endpoints,
      recorder: context.recorder,
      now: context.now,
      auth: provider,
      insecure: context.plan.insecure,
    }),
  };
}
