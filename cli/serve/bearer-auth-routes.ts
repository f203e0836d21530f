/**
 * The login flow a scenario scripts against: POST /login trades a user name for a bearer token,
 * GET /me accepts only tokens this server issued (by /login or /oauth/token) and not expired.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './read-body.js';
import {
  PAYLOAD_TOO_LARGE,
  POST_ONLY,
  prebuildJson,
  sendJson,
  sendPrebuilt,
  type PrebuiltResponse,
} from './respond.js';
import type { TargetContext } from './target-route.js';

/** Lifetime of /login tokens, as announced in their expires_in. */
export const LOGIN_TOKEN_TTL_SECONDS = 3600;

const USER_REQUIRED = prebuildJson(400, {
  error: 'a JSON body with a non-empty "user" is required',
});
// RFC 6750 §3: a 401 from a bearer-protected resource names the scheme in WWW-Authenticate.
const UNAUTHORIZED: PrebuiltResponse = prebuildJson(
  401,
  { error: 'unauthorized' },
  { 'www-authenticate': 'Bearer realm="barrage"' },
);
// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token; the scheme name is case-insensitive.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The "user" of a /login body, or undefined when the body is not JSON with a non-empty user. */
function loginUser(body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('user' in parsed)) return undefined;
  const user = parsed.user;
  return typeof user === 'string' && user !== '' ? user : undefined;
}

/** POST /login {"user","password"} → 200 {access_token, token_type, expires_in, user}; any password. */
export async function loginRoute(
  req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): Promise<void> {
  if (req.method !== 'POST') return sendPrebuilt(res, POST_ONLY);
  const body = await readBody(req);
  if (body === null) return sendPrebuilt(res, PAYLOAD_TOO_LARGE);
  const user = loginUser(body);
  if (user === undefined) return sendPrebuilt(res, USER_REQUIRED);
  const token = context.tokens.issue(user, LOGIN_TOKEN_TTL_SECONDS);
  const issued = {
    access_token: token,
    token_type: 'Bearer',
    expires_in: LOGIN_TOKEN_TTL_SECONDS,
    user,
  };
  sendJson(res, 200, JSON.stringify(issued));
}

/** /me with `Authorization: Bearer <live token>` → 200 {"user"}; anything else → 401. */
export function meRoute(
  req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): void {
  const match = BEARER.exec(req.headers.authorization ?? '');
  const user = match?.[1] === undefined ? undefined : context.tokens.subjectOf(match[1]);
  if (user === undefined) return sendPrebuilt(res, UNAUTHORIZED);
  sendJson(res, 200, JSON.stringify({ user }));
}
