/**
 * The bound on a virtual user's calls waiting at once (sleep, http, ws). Each holds a timer or a
 * queued request on the host, and a script that does not await them could start them without
 * end: 200,000 unawaited sleep(0) in one iteration held a 2 s run for minutes. The bootstrap
 * refuses a call past the bound where it is made, at once (a throw, which ends such a loop);
 * the host refuses one past it too, counting the calls earlier iterations left waiting.
 */

import { scenarioEndMs } from '../model/plan/scenario-plan.js';
import type { Plan } from '../model/plan/plan.js';

/** Longest single wait (a sleep, a ws.session pause) of a run its duration bounds. */
export const MAX_WAIT_MS = 3_600_000;

/**
 * The longest single wait of `plan`'s scenario calls (sleep(), a ws.session interval): an hour
 * when every scenario has a duration (its end and the stop grace cut longer waits), else the
 * run's `timeout`: a run bounded only by `requests` has no end to cut a wait, so `sleep(1e12)`
 * under `-n 1` must end by itself.
 */
export function longestWaitMs(plan: Plan): number {
  const timed = plan.scenarios.every((scenario) => scenarioEndMs(scenario) !== undefined);
  return timed ? MAX_WAIT_MS : plan.timeoutMs;
}

/** Calls of one virtual user waiting at once. */
export const MAX_WAITING_CALLS = 1000;

/** What a call past the bound throws, after `op: `. */
export const WAITING_REFUSED = `refused, ${MAX_WAITING_CALLS} calls of this virtual user (sleep, http, ws) are already waiting; await them`;
