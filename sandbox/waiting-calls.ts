/**
 * The bound on a virtual user's calls waiting at once (sleep, http, ws). Each holds a timer or a
 * queued request on the host, and a script that does not await them could start them without
 * end: 200,000 unawaited sleep(0) in one iteration held a 2 s run for minutes. The bootstrap
 * refuses a call past the bound where it is made, at once (a throw, which ends such a loop);
 * the host refuses one past it too, counting the calls earlier iterations left waiting.
 */

/** Calls of one virtual user waiting at once. */
export const MAX_WAITING_CALLS = 1000;

/** What a call past the bound throws, after `op: `. */
export const WAITING_REFUSED = `refused, ${MAX_WAITING_CALLS} calls of this virtual user (sleep, http, ws) are already waiting; await them`;
