/**
 * The authentication token's life (spec §3.2) as a pure function: transition(state, event) gives
 * the next state and the row's effect, or undefined when the table has no such row (the caller
 * treats that as a bug). The OAuth 2.0 provider (oauth2-provider.ts) owns the token, the timers
 * and the requests; every state change it makes goes through this table.
 *
 * | State      | Event                 | Condition (checked by the provider)        | Next       | Effect             |
 * | ---------- | --------------------- | ------------------------------------------ | ---------- | ------------------ |
 * | (start)    | provider created      | none                                       | NoToken    |                    |
 * | NoToken    | token_requested       | none                                       | Fetching   | send_token_request |
 * | Fetching   | token_acquired        | none                                       | Valid      | cache_token        |
 * | Fetching   | fetch_failed          | none                                       | Error      |                    |
 * | Valid      | token_used            | none                                       | Valid      | return_cached      |
 * | Valid      | refresh_point_reached | refresh_before_expiry is set               | NearExpiry |                    |
 * | Valid      | ttl_elapsed           | none                                       | Expired    |                    |
 * | NearExpiry | refresh_started       | none                                       | Refreshing | send_token_request |
 * | Refreshing | new_token_obtained    | none                                       | Valid      | replace_token      |
 * | Refreshing | old_token_used        | the background refresh ended without token | Valid      | keep_old_token     |
 * | Expired    | token_requested       | none                                       | Fetching   | send_token_request |
 * | Error      | retry                 | a backoff passed; retries ≤ max_retries    | Fetching   | send_token_request |
 * | Error      | max_retries_reached   | 1 + max_retries fetches failed in a row    | End        | stop_run           |
 *
 * The spec leaves the condition of `Refreshing --old token used--> Valid` open. Our reading: rows
 * `new_token_obtained` and `old_token_used` are the two ways a background refresh ends. Either a
 * new token arrived and replaces the old one, or the refresh failed (the identity provider erred,
 * timed out or answered something unusable) and the old token stays in use. Requests that arrive
 * while Refreshing are given the old token without a transition (spec §5.3: the refresh happens
 * "in the background"), as long as it has not expired; once it has, they wait for the refresh as
 * they wait during Fetching. The other reading, "every request served while Refreshing goes back
 * to Valid", would leave the refresh's result arriving in Valid (no row) and let the next request,
 * still past the refresh point, start a second refresh: no longer one request at a time.
 *
 * Effects name the "Also" column; entering Fetching or Refreshing always sends one token request
 * (the spec's Also is empty for Expired → Fetching and Error → Fetching, but Fetching means a
 * request is in flight). `End` is the spec's "(end)": the provider gave up and the run stops.
 */

/** States of the token (spec §3.2), plus End for "(end)". */
export type TokenState =
  'NoToken' | 'Fetching' | 'Valid' | 'NearExpiry' | 'Expired' | 'Refreshing' | 'Error' | 'End';

/** Triggers of the table. */
export type TokenEvent =
  | 'token_requested'
  | 'token_acquired'
  | 'fetch_failed'
  | 'token_used'
  | 'refresh_point_reached'
  | 'ttl_elapsed'
  | 'refresh_started'
  | 'new_token_obtained'
  | 'old_token_used'
  | 'retry'
  | 'max_retries_reached';

/** What the provider does on a transition (the table's Also column). */
export type TokenEffect =
  | 'none'
  | 'send_token_request'
  | 'cache_token'
  | 'return_cached'
  | 'replace_token'
  | 'keep_old_token'
  | 'stop_run';

/** One row's outcome. */
export interface TokenTransition {
  readonly next: TokenState;
  readonly effect: TokenEffect;
}

/** The state of a freshly created provider (row "(start) --provider created--> NoToken"). */
export const INITIAL_TOKEN_STATE: TokenState = 'NoToken';

const row = (next: TokenState, effect: TokenEffect = 'none'): TokenTransition => ({ next, effect });

// Built once: transition() is on the per-request path (Valid --token_used--> Valid) and
// allocates nothing.
const TABLE: Readonly<Record<TokenState, Partial<Record<TokenEvent, TokenTransition>>>> = {
  NoToken: { token_requested: row('Fetching', 'send_token_request') },
  Fetching: { token_acquired: row('Valid', 'cache_token'), fetch_failed: row('Error') },
  Valid: {
    token_used: row('Valid', 'return_cached'),
    refresh_point_reached: row('NearExpiry'),
    ttl_elapsed: row('Expired'),
  },
  NearExpiry: { refresh_started: row('Refreshing', 'send_token_request') },
  Refreshing: {
    new_token_obtained: row('Valid', 'replace_token'),
    old_token_used: row('Valid', 'keep_old_token'),
  },
  Expired: { token_requested: row('Fetching', 'send_token_request') },
  Error: {
    retry: row('Fetching', 'send_token_request'),
    max_retries_reached: row('End', 'stop_run'),
  },
  End: {},
};

/** The table's row for (state, event), or undefined when the table has none. */
export function transition(state: TokenState, event: TokenEvent): TokenTransition | undefined {
  return TABLE[state][event];
}
