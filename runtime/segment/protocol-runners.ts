/**
 * One SessionRunner over a plan's WebSocket sessions and gRPC calls: iterations hand every
 * endpoint that is not HTTP to one runner (worker/iteration.ts), which passes it to its
 * protocol's.
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { SessionOutcome, SessionRunner } from '../ws/session-runner.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** The runner of `ws` and `grpc` endpoints by their protocol (either alone when the other is undefined). */
export function byProtocol(
  endpoints: readonly EndpointPlan[],
  ws: SessionRunner | undefined,
  grpc: SessionRunner | undefined,
): SessionRunner | undefined {
  if (ws === undefined || grpc === undefined) return ws ?? grpc;
  return {
    run(vu: VirtualUser, endpoint: number, intendedUs: number): Promise<SessionOutcome> {
      const runner = endpoints[endpoint]!.protocol === 'grpc' ? grpc : ws;
      return runner.run(vu, endpoint, intendedUs);
    },
    stop(): void {
      ws.stop();
      grpc.stop();
    },
  };
}
