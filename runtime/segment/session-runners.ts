/**
 * The session runners of a segment's scenario as one: an endpoint that is not an HTTP request
 * goes to the runner of its protocol (ws:// to the WebSocket one, `socketio:` to the Socket.IO
 * one, grpc:// to the gRPC one), and a stop reaches them all. The iteration sees a single
 * SessionRunner (worker/iteration.ts).
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { SessionOutcome, SessionRunner } from '../ws/session-runner.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** A runner per protocol other than HTTP; undefined where the plan has none of its endpoints. */
export type RunnersByProtocol = Partial<
  Record<Exclude<EndpointPlan['protocol'], 'http'>, SessionRunner | undefined>
>;

/** One runner of them all; the one given alone, or undefined when none is. */
export function joinSessionRunners(
  endpoints: readonly EndpointPlan[],
  runners: RunnersByProtocol,
): SessionRunner | undefined {
  const given = Object.values(runners).filter((r): r is SessionRunner => r !== undefined);
  if (given.length <= 1) return given[0];
  return {
    run(vu: VirtualUser, endpoint: number, intendedUs: number): Promise<SessionOutcome> {
      const protocol = endpoints[endpoint]!.protocol;
      const runner = protocol === 'http' ? undefined : runners[protocol];
      if (runner === undefined) throw new Error(`no runner of ${protocol} endpoints`);
      return runner.run(vu, endpoint, intendedUs);
    },
    stop(): void {
      for (const runner of given) runner.stop();
    },
  };
}
