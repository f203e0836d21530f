/**
 * Request counters of the target server. Counting sits on the per-request path, so it is an
 * index into a fixed array plus one per-second slot; names are attached only when a snapshot is
 * taken.
 */

/**
 * What the session app under /app/ counts besides its requests in byRoute, so a test can hold
 * barrage's figures against the target's. One registry: the stats type and the counter follow it.
 */
export const SESSION_EVENTS = [
  /** Sessions started (a first GET /app/login, or a new id given at login). */
  'sessionsCreated',
  /** POST /app/login that logged a user in (302 to /app/dashboard). */
  'logins',
  /** POST /app/login with a valid token but an unknown user or wrong password (302 back). */
  'badCredentials',
  /** POST /app/login refused 403: no session, or a CSRF token that is not the session's. */
  'csrfRejected',
  /** GET /app/dashboard answered 200 to a logged-in session. */
  'dashboardViews',
  /** GET /app/dashboard without a logged-in session (302 to /app/login). */
  'notLoggedIn',
  /** POST /app/logout that ended a session. */
  'logouts',
] as const;

/** One of the session app's counted events. */
export type SessionEvent = (typeof SESSION_EVENTS)[number];

/** The session app's counters, one per SESSION_EVENTS entry. */
export type SessionStats = Record<SessionEvent, number>;

function zeroSessionStats(): SessionStats {
  return Object.fromEntries(SESSION_EVENTS.map((event) => [event, 0])) as SessionStats;
}

/** What `TargetServer.stats()` and `GET /__stats` report. */
export interface TargetStats {
  /** Requests counted since start or the last reset (`/__stats` itself is never counted). */
  total: number;
  /** Requests per route name ('json', 'delay', …, 'not_found'); every route is listed, zeros too. */
  byRoute: Record<string, number>;
  /** Requests per whole second since start or reset; index 0 is the first second, the last entry is the current, incomplete second. */
  perSecond: number[];
  /** Access tokens issued by `/oauth/token` (not `/login`). */
  tokensIssued: number;
  /** The session app's events (logins, dashboard views, refusals…); see SESSION_EVENTS. */
  session: SessionStats;
}

/** Counts requests per route index and per whole second of a monotonic millisecond clock. */
export class TargetStatsCounter {
  readonly #names: readonly string[];
  readonly #now: () => number;
  #counts: number[];
  #perSecond: number[] = [];
  #total = 0;
  #tokensIssued = 0;
  #session = zeroSessionStats();
  #start: number;

  /** `names[i]` is the route counted by `count(i)`; `now` returns milliseconds (performance.now). */
  constructor(names: readonly string[], now: () => number) {
    this.#names = names;
    this.#now = now;
    this.#counts = names.map(() => 0);
    this.#start = now();
  }

  /** Counts one request of route `index` in its route and in the current second's slot. */
  count(index: number): void {
    this.#total++;
    this.#counts[index] = (this.#counts[index] ?? 0) + 1;
    const slot = this.#currentSlot();
    this.#padTo(slot);
    this.#perSecond[slot] = (this.#perSecond[slot] ?? 0) + 1;
  }

  /** Counts one issued access token. */
  tokenIssued(): void {
    this.#tokensIssued++;
  }

  /** Counts one event of the session app. */
  sessionEvent(event: SessionEvent): void {
    this.#session[event]++;
  }

  /** A copy of the counters; perSecond is padded with zeros up to the current second. */
  snapshot(): TargetStats {
    const byRoute: Record<string, number> = {};
    this.#names.forEach((name, i) => (byRoute[name] = this.#counts[i] ?? 0));
    this.#padTo(this.#currentSlot());
    return {
      total: this.#total,
      byRoute,
      perSecond: this.#perSecond.slice(),
      tokensIssued: this.#tokensIssued,
      session: { ...this.#session },
    };
  }

  /** Zeroes every counter and restarts the per-second clock at now. */
  reset(): void {
    this.#counts = this.#names.map(() => 0);
    this.#perSecond = [];
    this.#total = 0;
    this.#tokensIssued = 0;
    this.#session = zeroSessionStats();
    this.#start = this.#now();
  }

  // slot = ⌊(now − start) / 1000⌋: second 0 is [start, start + 1000 ms).
  #currentSlot(): number {
    return Math.floor((this.#now() - this.#start) / 1000);
  }

  #padTo(slot: number): void {
    while (this.#perSecond.length <= slot) this.#perSecond.push(0);
  }
}
