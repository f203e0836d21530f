/**
 * A scripted virtual user as the host operations see it (script-ops.ts): its virtual user, its
 * scenario's lane, its calls in turn, its sleeps and its ws.connect() sockets.
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { Recorder } from '../metrics/recorder.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import type { RequestPath } from '../worker/request-path.js';
import type { VirtualUser } from '../user/virtual-user.js';
import type { Settle } from './sandbox.js';
import type { ScriptSocket } from './script-socket.js';

/**
 * The scenario a scripted virtual user runs for (docs/configuration.md, Scenarios): its request
 * path and metrics shard, and the exported function its iterations call ('' for the default).
 */
export interface Lane {
  readonly path: RequestPath;
  readonly recorder: Recorder;
  readonly exec: string;
  /** The scenario's name ('' for setup() and teardown()). */
  readonly scenario: string;
  /** The next iteration's number in the scenario across the run (k6's iterationInTest). */
  readonly nextInTest: () => number;
}

/** An http or ws call of a virtual user, waiting for its turn or in flight. */
export interface Call {
  readonly op: 'http' | 'ws' | 'http.batch';
  readonly json: string;
  readonly settle: Settle;
  /** The bytes its arguments name by place (binary bodies and multipart files). */
  readonly bytes: readonly Uint8Array[];
}

/** A ws.connect() socket of a virtual user, and the endpoint its handshake is built from. */
export interface UserSocket {
  readonly socket: ScriptSocket;
  readonly endpoint: EndpointPlan;
}

/** A virtual user as the operations see it. */
export class ScriptUser {
  /** Intended time of the iteration's permit, given to its first request only. */
  intendedUs = NO_INTENDED_TIME;
  /** Its http and ws calls: they go one at a time (it owns one exchange); the first is in flight. */
  readonly calls: Call[] = [];
  /** Its sleeps in progress. */
  sleeping = 0;
  /** Its ws.connect() sockets, by the call's id. */
  readonly sockets = new Map<number, UserSocket>();
  /** Its iteration's number in the scenario across the run (exec.scenario.iterationInTest). */
  iterationInTest = -1;
  /** Its iteration called exec.test.abort(): it ends as aborted, not as a script error. */
  aborted = false;
  /** When its http call in flight began, µs since dispatch start. */
  startUs = 0;
  /** The end of its http call in flight, and a throw on its path (a bug), bound once. */
  sent: (() => void) | undefined;
  broken: ((error: unknown) => void) | undefined;

  constructor(
    readonly vu: VirtualUser,
    readonly lane: Lane,
  ) {}

  /** The intended time its next request carries: the permit's, for the iteration's first only. */
  takeIntended(): number {
    const intended = this.intendedUs;
    this.intendedUs = NO_INTENDED_TIME;
    return intended;
  }
}
