/**
 * How long a server asks a client to wait before trying again, from a 429 or 503 response's
 * headers, pure:
 *
 *   Retry-After: <delay-seconds> | <HTTP-date>      RFC 9110 §10.2.3
 *   RateLimit: "<policy>";r=<remaining>;t=<reset>   draft-ietf-httpapi-ratelimit-headers-08:
 *                                                   none left (r=0) until t seconds from now
 *   RateLimit-Reset: <seconds>, RateLimit-Remaining: 0   the draft's earlier (-07) fields
 *
 * The longest wait any of them asks for is the one honoured; a field that does not parse asks
 * for nothing. A date in the past asks for no wait.
 */

/** Headers as undici gives them: name, value, name, value… as Buffers. */
export type RawHeaderList = readonly Buffer[] | null;

/** The wait (ms) the response asks for before a retry; undefined when it asks for none. */
export function retryAfterMs(headers: RawHeaderList, nowMs: number): number | undefined {
  if (headers === null) return undefined;
  let waitMs: number | undefined;
  let remaining: number | undefined;
  let reset: number | undefined;
  const ask = (ms: number | undefined): void => {
    if (ms !== undefined && (waitMs === undefined || ms > waitMs)) waitMs = ms;
  };
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!.toString('latin1').toLowerCase();
    const value = headers[i + 1]!.toString('latin1').trim();
    if (name === 'retry-after') ask(retryAfter(value, nowMs));
    else if (name === 'ratelimit') ask(rateLimit(value));
    else if (name === 'ratelimit-remaining') remaining = seconds(value);
    else if (name === 'ratelimit-reset') reset = seconds(value);
  }
  if (remaining === 0 && reset !== undefined) ask(reset * 1000);
  return waitMs;
}

/** Retry-After: delay-seconds (digits only), or an HTTP-date (which names a day or month). */
function retryAfter(value: string, nowMs: number): number | undefined {
  const delay = seconds(value);
  if (delay !== undefined) return delay * 1000;
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The draft-08 RateLimit field: a list of policies, each `"name";r=<remaining>;t=<reset>`; a
 * policy with none remaining asks for its reset.
 */
function rateLimit(value: string): number | undefined {
  let wait: number | undefined;
  for (const item of value.split(',')) {
    const params = new Map<string, string>();
    for (const part of item.split(';').slice(1)) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    const r = seconds(params.get('r') ?? '');
    const t = seconds(params.get('t') ?? '');
    if (r === 0 && t !== undefined) wait = Math.max(wait ?? 0, t * 1000);
  }
  return wait;
}

/** A non-negative integer of seconds, as the fields write them; undefined otherwise. */
function seconds(value: string): number | undefined {
  return /^\d{1,10}$/.test(value) ? Number(value) : undefined;
}
