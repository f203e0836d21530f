/**
 * The OAuth 2.0 provider (spec §5): one per segment, shared by its workers, driving the token
 * state machine of token-machine.ts.
 *
 * - Single flight: the first request with no usable token starts the one token request; every
 *   request meanwhile (Fetching, Error) awaits that same promise, so 500 workers cause one fetch.
 *   The segment asks for the first token before dispatch starts (prepare()), so the first permits
 *   are not made late by it.
 * - Expiry: a token's lifetime counts from when its request was *sent*, so barrage believes it
 *   expired no later than the identity provider does. Checked on every request: a request is never
 *   given a token past that point. Without `expires_in` the token lives for the whole run.
 * - Refresh before expiry (R = refresh_before_expiry, L = lifetime, t₀ = send time):
 *     refresh point = t₀ + max(L − R, L / 2)
 *   The first request past it starts one background refresh (NearExpiry → Refreshing) and, like
 *   every request until the new token arrives, is given the old token while it lives. The L/2
 *   floor keeps an R longer than the token's life from refreshing without pause.
 * - A failed background refresh keeps the old token (Refreshing --old_token_used--> Valid) and
 *   moves the refresh point one backoff later; if the old token has expired meanwhile, the waiting
 *   requests go through Expired → Fetching like any expiry.
 * - A failed fetch (Fetching → Error) is retried after backoff(n) = backoffMs(n, 200 ms, 5 s,
 *   jitter 0.5) (runtime/failure/retry.ts), n = failures in a row; after 1 + max_retries failures
 *   in a row the provider gives up (Error → End): the run stops through `fatal` with a message
 *   that names the token URL (without query or user info) and the last failure, never a secret.
 *   Requests still waiting get NO_TOKEN and are not sent.
 * - Token fetches are recorded apart (`recordFetch`), never as requests to the target.
 */
import type { ProxyPlan } from '../../model/plan/proxy-plan.js';
import type { TlsPlan } from '../../model/plan/tls-plan.js';
import type { Random } from '../../model/random.js';
import { backoffMs } from '../failure/retry.js';
import { NO_TOKEN, type AuthProvider } from './auth-provider.js';
import {
  INITIAL_TOKEN_STATE,
  transition,
  type TokenEvent,
  type TokenState,
} from './token-machine.js';
import {
  createTokenRequester,
  displayTokenUrl,
  type OAuth2Plan,
  type TokenOutcome,
  type TokenRequester,
} from './token-request.js';

/** What the provider takes from its segment (time and randomness passed in). */
export interface OAuth2Deps {
  /** Bound of each token request (the run's `timeout`). */
  readonly timeoutMs: number;
  /** Skip TLS verification of the token URL too (`insecure: true`). */
  readonly insecure: boolean;
  /** The `tls:` settings, the token URL's origin's applying to it as to a target's. */
  readonly tls: TlsPlan | undefined;
  /** The run's proxies, which token requests go through as target requests do. */
  readonly proxy: ProxyPlan | undefined;
  /** µs of a monotonic clock. */
  readonly now: () => number;
  /** Jitter of the retry backoff. */
  readonly random: Random;
  /** Waits `ms`, or less when `signal` aborts; never rejects. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Records one token fetch apart from target requests: success and latency in µs. */
  readonly recordFetch: (ok: boolean, us: number) => void;
  /** Stops the run with a message for the user. */
  readonly fatal: (message: string) => void;
}

/** Backoff between token fetch retries: base, cap and jitter of backoffMs. */
const RETRY_BASE_MS = 200;
const RETRY_MAX_MS = 5_000;
const RETRY_JITTER = 0.5;

type Header = string | typeof NO_TOKEN;

/** Fetches, caches, refreshes and injects an OAuth 2.0 bearer token. */
export class OAuth2Provider implements AuthProvider {
  readonly #plan: OAuth2Plan;
  readonly #deps: OAuth2Deps;
  readonly #requester: TokenRequester;
  readonly #closing = new AbortController();
  #state: TokenState = INITIAL_TOKEN_STATE;
  /** `Bearer <token>` of the cached token, built once per token. */
  #header = '';
  /** µs after which the cached token is expired (Infinity: never). */
  #expiresAt = 0;
  /** µs after which a background refresh starts (Infinity: never). */
  #refreshAt = Infinity;
  /** What requests that must wait (Fetching, Error, Refreshing past expiry) wait for. */
  #pending: Promise<Header> = Promise.resolve(NO_TOKEN);
  /** Failed fetches in a row: foreground (for max_retries) and background (for their backoff). */
  #failures = 0;
  #refreshFailures = 0;
  #lastFailure = '';

  constructor(plan: OAuth2Plan, deps: OAuth2Deps) {
    this.#plan = plan;
    this.#deps = deps;
    this.#requester = createTokenRequester(plan, deps);
  }

  /** The token state (spec §3.2), for tests and diagnostics. */
  get state(): TokenState {
    return this.#state;
  }

  /** The Authorization value: at once while the token is usable, else after the one fetch. */
  authorization(): Header | Promise<Header> {
    switch (this.#state) {
      case 'Valid': {
        const t = this.#deps.now();
        if (t >= this.#expiresAt) {
          this.#fire('ttl_elapsed');
          return this.#fetch();
        }
        if (t >= this.#refreshAt) {
          this.#fire('refresh_point_reached');
          this.#fire('refresh_started');
          this.#pending = this.#refresh();
          return this.#header;
        }
        this.#fire('token_used');
        return this.#header;
      }
      case 'NearExpiry': // left in the step that enters it; listed for completeness
      case 'Refreshing':
        // The old token while it lives; past its expiry, wait for the refresh in flight.
        return this.#deps.now() < this.#expiresAt ? this.#header : this.#pending;
      case 'NoToken':
      case 'Expired':
        return this.#fetch();
      case 'Fetching':
      case 'Error':
        return this.#pending;
      case 'End':
        return NO_TOKEN;
    }
  }

  /** Fetches the first token (before dispatch); a failure has stopped the run through `fatal`. */
  async prepare(): Promise<void> {
    const first = this.authorization();
    if (typeof first === 'object') await first;
  }

  /** Aborts a fetch or backoff in flight and closes the connection; waiting requests get NO_TOKEN. */
  close(): void {
    if (this.#closing.signal.aborted) return;
    this.#closing.abort();
    void this.#requester.close();
  }

  #fire(event: TokenEvent): void {
    const next = transition(this.#state, event);
    if (next === undefined) throw new Error(`token state ${this.#state} has no ${event} row`);
    this.#state = next.next;
  }

  /** NoToken/Expired --token_requested--> Fetching: the one foreground fetch, with its retries. */
  #fetch(): Promise<Header> {
    this.#fire('token_requested');
    this.#pending = this.#acquire();
    return this.#pending;
  }

  async #acquire(): Promise<Header> {
    for (;;) {
      const sentAt = this.#deps.now();
      const outcome = await this.#send();
      if (outcome === undefined) return NO_TOKEN;
      if (outcome.ok) {
        this.#fire('token_acquired');
        this.#failures = 0;
        return this.#cache(outcome, sentAt);
      }
      this.#fire('fetch_failed');
      this.#failures++;
      this.#lastFailure = outcome.reason;
      if (this.#failures > this.#plan.maxRetries) {
        this.#fire('max_retries_reached');
        this.#deps.fatal(this.#giveUpMessage());
        return NO_TOKEN;
      }
      await this.#deps.sleep(this.#backoff(this.#failures), this.#closing.signal);
      if (this.#closing.signal.aborted) return NO_TOKEN;
      this.#fire('retry');
    }
  }

  /** The background refresh: Refreshing until a new token replaces the old, or the old is kept. */
  async #refresh(): Promise<Header> {
    const sentAt = this.#deps.now();
    const outcome = await this.#send();
    if (outcome === undefined) return NO_TOKEN;
    if (outcome.ok) {
      this.#fire('new_token_obtained');
      this.#refreshFailures = 0;
      return this.#cache(outcome, sentAt);
    }
    this.#fire('old_token_used');
    this.#refreshFailures++;
    const t = this.#deps.now();
    if (t >= this.#expiresAt) {
      this.#fire('ttl_elapsed');
      return this.#fetch();
    }
    this.#refreshAt = t + this.#backoff(this.#refreshFailures) * 1000;
    return this.#header;
  }

  /** One token request, recorded; undefined when the provider closed meanwhile. */
  async #send(): Promise<TokenOutcome | undefined> {
    const start = this.#deps.now();
    const outcome = await this.#requester.send(this.#closing.signal);
    if (this.#closing.signal.aborted) return undefined;
    this.#deps.recordFetch(outcome.ok, this.#deps.now() - start);
    return outcome;
  }

  #cache(outcome: Extract<TokenOutcome, { ok: true }>, sentAt: number): string {
    this.#header = `Bearer ${outcome.accessToken}`;
    const lifetime = outcome.expiresInS === undefined ? Infinity : outcome.expiresInS * 1e6;
    this.#expiresAt = sentAt + lifetime;
    const before = this.#plan.refreshBeforeExpiryMs;
    this.#refreshAt =
      before === undefined ? Infinity : sentAt + Math.max(lifetime - before * 1000, lifetime / 2);
    return this.#header;
  }

  #backoff(failures: number): number {
    return backoffMs(failures, RETRY_BASE_MS, RETRY_MAX_MS, RETRY_JITTER, this.#deps.random);
  }

  #giveUpMessage(): string {
    const attempts = this.#failures;
    return (
      `auth: no token from ${displayTokenUrl(this.#plan.tokenUrl)} after ${attempts} ` +
      `attempt${attempts === 1 ? '' : 's'} (max_retries: ${this.#plan.maxRetries}); ` +
      `last failure: ${this.#lastFailure}`
    );
  }
}
