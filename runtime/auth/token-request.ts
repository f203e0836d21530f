/**
 * One OAuth 2.0 token request (RFC 6749 §4.4, client credentials; other grant types are sent the
 * same way): a POST of a form-urlencoded body to the token URL, answered with JSON holding
 * `access_token` and, usually, `expires_in`. Body, headers and the connection pool are built once
 * per provider. The client authenticates in the form (client_id, client_secret) or, with
 * `client_auth: basic`, in an HTTP Basic header of its form-urlencoded id and secret (§2.3.1).
 *
 * A failure is described by safe text only: the status, an RFC 6749 §5.2 error code, or the kind
 * of network error. Response bodies, secrets and tokens never reach a failure's text.
 */
import type { AuthPlan } from '../../model/plan/plan.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import { classifyError } from '../failure/error-kind.js';
import type { ConnectionSettings } from '../http/connect-options.js';
import type { TokenPool } from './token-pool.js';

/** The oauth2 form of the auth plan. */
export type OAuth2Plan = Extract<AuthPlan, { type: 'oauth2' }>;

/** A token, or why there is none (text safe to show). */
export type TokenOutcome =
  | {
      readonly ok: true;
      readonly accessToken: string;
      /** Lifetime in seconds; undefined when the response gave none (the token never expires). */
      readonly expiresInS: number | undefined;
    }
  | { readonly ok: false; readonly reason: string };

/** Sends token requests for one provider. */
export interface TokenRequester {
  /** One token request, bounded by the run's timeout and by `signal`. Never rejects. */
  send(signal: AbortSignal): Promise<TokenOutcome>;
  /** Closes the pooled connection. */
  close(): Promise<void>;
}

/** A token response is a small JSON object; anything bigger is refused. */
const MAX_TOKEN_RESPONSE = 64 * 1024;

// RFC 6749 §5.2 error codes (and two of §4.1.2.1 that some servers use at the token endpoint):
// only these are quoted from a failed response, so a hostile server cannot put text in our errors.
const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'server_error',
  'temporarily_unavailable',
]);

const NETWORK_REASONS: Partial<Record<ErrorKind, string>> = {
  refused: 'connection refused',
  reset: 'connection reset',
  dns: 'host not found',
  tls: 'TLS handshake failed',
  socket: 'network unreachable',
};

/** application/x-www-form-urlencoded encoding of one value (WHATWG URL, '+' for spaces). */
function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/** The token URL as it may be shown: no user info, query or fragment. */
export function displayTokenUrl(tokenUrl: string): string {
  const url = new URL(tokenUrl);
  return `${url.origin}${url.pathname}`;
}

/** Builds the requester: body, headers and a keep-alive pool to the token URL, once. */
export function createTokenRequester(
  plan: OAuth2Plan,
  options: ConnectionSettings,
): TokenRequester {
  const form = new URLSearchParams({ grant_type: plan.grantType });
  if (plan.scope !== undefined) form.set('scope', plan.scope);
  if (plan.audience !== undefined) form.set('audience', plan.audience);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (plan.clientAuth === 'basic') {
    const pair = `${formEncode(plan.clientId)}:${formEncode(plan.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    form.set('client_id', plan.clientId);
    form.set('client_secret', plan.clientSecret);
  }
  const body = form.toString();
  const timeout = options.timeoutMs;
  // Opened at the first request: token-pool.ts imports undici's index (it says why).
  let pool: Promise<TokenPool> | undefined;
  const open = (): Promise<TokenPool> =>
    (pool ??= import('./token-pool.js').then((m) =>
      m.openTokenPool(new URL(plan.tokenUrl).origin, options),
    ));
  return {
    send: async (signal) => {
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeout)]);
      try {
        const response = await (await open()).post(plan.tokenUrl, headers, body, deadline);
        const text = await readCapped(response.body);
        if (text === undefined) return failed(`response larger than ${MAX_TOKEN_RESPONSE} bytes`);
        return parseTokenResponse(response.statusCode, text);
      } catch (error) {
        if (deadline.aborted && !signal.aborted) return failed(`no answer within ${timeout} ms`);
        const kind = classifyError(error);
        return failed(NETWORK_REASONS[kind] ?? `request failed (${kind})`);
      }
    },
    close: async () => {
      if (pool !== undefined) await (await pool).close();
    },
  };
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_TOKEN_RESPONSE) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failed(reason: string): TokenOutcome {
  return { ok: false, reason };
}

/** A token response (RFC 6749 §5.1 and §5.2) → the token, or a safe reason. */
export function parseTokenResponse(status: number, text: string): TokenOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const fields = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  if (status < 200 || status > 299) {
    const code =
      typeof fields.error === 'string' && OAUTH_ERRORS.has(fields.error) ? fields.error : '';
    return failed(`HTTP ${status}${code === '' ? '' : ` ${code}`}`);
  }
  if (json === undefined) return failed(`HTTP ${status} with a body that is not JSON`);
  const token = fields.access_token;
  if (typeof token !== 'string' || token === '') return failed('no access_token in the response');
  const type = fields.token_type;
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer'))
    return failed('token_type is not Bearer');
  const expiresIn = fields.expires_in;
  if (expiresIn === undefined) return { ok: true, accessToken: token, expiresInS: undefined };
  // Some servers send the number as a string ("3600").
  const seconds = typeof expiresIn === 'string' ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0)
    return failed('expires_in is not a positive number');
  return { ok: true, accessToken: token, expiresInS: seconds };
}
