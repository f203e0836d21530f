/**
 * The session runners of a segment's scenario as one: an endpoint's session goes to the runner of
 * its protocol (ws:// to the WebSocket one, `socketio:` to the Socket.IO one), and a stop reaches
 * both. The iteration sees a single SessionRunner, as before Socket.IO.
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { SessionOutcome, SessionRunner } from '../ws/session-runner.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** One runner of `ws` and `socketio`; the one given alone, or undefined when neither is. */
export function joinSessionRunners(
  endpoints: readonly EndpointPlan[],
  ws: SessionRunner | undefined,
  socketio: SessionRunner | undefined,
): SessionRunner | undefined {
  if (ws === undefined || socketio === undefined) return ws ?? socketio;
  return {
    run(vu: VirtualUser, endpoint: number, intendedUs: number): Promise<SessionOutcome> {
      const runner = endpoints[endpoint]?.protocol === 'socketio' ? socketio : ws;
      return runner.run(vu, endpoint, intendedUs);
    },
    stop(): void {
      ws.stop();
      socketio.stop();
    },
  };
}
