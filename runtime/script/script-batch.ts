/**
 * A scenario's http.batch(): its requests go out at once, up to MAX_BATCH_IN_FLIGHT in flight,
 * each on a lane of the virtual user (virtual-user.ts: an exchange and connections of its own,
 * the user's variables and cookies), through the same request path as one http call: each is
 * recorded as a request of its own name. The batch settles once every request has, with their
 * responses in the order they were given. A lane takes the next request as soon as its own is
 * over, as a browser's connections to a host do.
 */
import type { CompiledRequest } from '../http/compiled-request.js';
import type { VirtualUser } from '../user/virtual-user.js';
import type { ResponseValues } from '../../sandbox/isolate/records.js';
import type { Settled } from './sandbox.js';
import type { ScriptUser } from './script-user.js';

/** Requests of one batch in flight at once (k6's batchPerHost default; a browser's per host). */
export const MAX_BATCH_IN_FLIGHT = 6;

/** A response as it crosses into the isolate in a batch (as JSON). */
export type BatchResponse = ResponseValues;

/** What a batch needs from the operations. */
export interface BatchDeps {
  /** µs since dispatch start. */
  readonly now: () => number;
  /** The response a lane's request got, sent at `startUs`. */
  readonly response: (lane: VirtualUser, startUs: number) => BatchResponse;
}

/** Sends `requests` for `user`; `done` gets their responses, or the refusal of a failed path. */
export function sendBatch(
  user: ScriptUser,
  requests: readonly CompiledRequest[],
  deps: BatchDeps,
  done: (settled: Settled) => void,
): void {
  const responses: BatchResponse[] = new Array<BatchResponse>(requests.length);
  let next = 0;
  let left = requests.length;
  let over = false;
  const finish = (settled: Settled): void => {
    if (over) return;
    over = true;
    done(settled);
  };
  if (left === 0) {
    finish({ kind: 'value', json: '[]' });
    return;
  }
  const take = (lane: VirtualUser): void => {
    if (over || next === requests.length) return;
    const at = next++;
    const request = requests[at]!;
    const intended = user.takeIntended();
    lane.vars.begin();
    const startUs = deps.now();
    const sent = (): void => {
      responses[at] = deps.response(lane, startUs);
      if (--left === 0) finish({ kind: 'value', json: JSON.stringify(responses) });
      else take(lane);
    };
    const broken = (error: unknown): void =>
      finish({ kind: 'refused', message: error instanceof Error ? error.message : String(error) });
    user.lane.path.send(lane, request, request.endpoint.index, intended, sent, broken);
  };
  const lanes = Math.min(MAX_BATCH_IN_FLIGHT, requests.length);
  for (let i = 0; i < lanes; i++) take(user.vu.lane(i));
}
