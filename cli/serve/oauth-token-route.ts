/**
 * POST /oauth/token: the OAuth 2.0 client credentials grant (RFC 6749 §4.4), enough of it for
 * barrage's oauth auth to fetch, cache and refresh tokens against. Checks, in this order:
 *
 *   method is POST                                  else 405
 *   Content-Type is application/x-www-form-urlencoded, no parameter repeated (§3.2)
 *                                                   else 400 invalid_request
 *   body within 1 MiB                               else 413
 *   client authenticated (§2.3.1): HTTP Basic with form-urlencoded id:secret, or
 *     client_id + client_secret in the body — exactly one of the two
 *                                                   else 401 invalid_client (two: 400 invalid_request)
 *   grant_type present                              else 400 invalid_request
 *   grant_type = client_credentials                 else 400 unsupported_grant_type
 *   → 200 {access_token, token_type: "Bearer", expires_in, scope?}, no-store (§5.1)
 *
 * `scope` is echoed back when given; `audience` (an Auth0-style extension) is accepted and ignored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isFormContentType, readBody } from './read-body.js';
import { PAYLOAD_TOO_LARGE, POST_ONLY, prebuildJson, sendJson, sendPrebuilt } from './respond.js';
import type { TargetContext } from './target-route.js';

// §5.1 and §5.2: token responses, errors included, must not be cached.
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;
const INVALID_REQUEST = prebuildJson(400, { error: 'invalid_request' }, NO_STORE);
const UNSUPPORTED_GRANT = prebuildJson(400, { error: 'unsupported_grant_type' }, NO_STORE);
// §5.2: a 401 invalid_client names the authentication scheme the client should use.
const INVALID_CLIENT = prebuildJson(
  401,
  { error: 'invalid_client' },
  { ...NO_STORE, 'www-authenticate': 'Basic realm="barrage"' },
);
const SINGLE_VALUED = ['grant_type', 'client_id', 'client_secret', 'scope', 'audience'];

interface ClientCredentials {
  readonly id: string;
  readonly secret: string;
}

/** application/x-www-form-urlencoded decoding ('+' is a space); the raw text if malformed. */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The client's credentials: from `Authorization: Basic`, else from the body; 'ambiguous' when
 * both carry a secret (§2.3: one authentication method per request), undefined when neither.
 */
function clientCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): ClientCredentials | 'ambiguous' | undefined {
  const basic =
    authorization === undefined ? null : /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (basic?.[1] !== undefined) {
    if (form.has('client_secret')) return 'ambiguous';
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return undefined;
    // §2.3.1: id and secret are form-urlencoded before being joined and base64-encoded.
    return {
      id: formDecode(decoded.slice(0, colon)),
      secret: formDecode(decoded.slice(colon + 1)),
    };
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  return id === null || secret === null ? undefined : { id, secret };
}

/** POST /oauth/token: issues a bearer token expiring after tokenTtlSeconds (see the table above). */
export async function oauthTokenRoute(
  req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): Promise<void> {
  if (req.method !== 'POST') return sendPrebuilt(res, POST_ONLY);
  if (!isFormContentType(req.headers['content-type'])) return sendPrebuilt(res, INVALID_REQUEST);
  const body = await readBody(req);
  if (body === null) return sendPrebuilt(res, PAYLOAD_TOO_LARGE);
  const form = new URLSearchParams(body.toString('utf8'));
  if (SINGLE_VALUED.some((name) => form.getAll(name).length > 1)) {
    return sendPrebuilt(res, INVALID_REQUEST);
  }
  const client = clientCredentials(req.headers.authorization, form);
  if (client === 'ambiguous') return sendPrebuilt(res, INVALID_REQUEST);
  if (client?.id !== context.clientId || client.secret !== context.clientSecret) {
    return sendPrebuilt(res, INVALID_CLIENT);
  }
  const grantType = form.get('grant_type');
  if (grantType === null) return sendPrebuilt(res, INVALID_REQUEST);
  if (grantType !== 'client_credentials') return sendPrebuilt(res, UNSUPPORTED_GRANT);
  const token = context.tokens.issue(client.id, context.tokenTtlSeconds);
  context.stats.tokenIssued();
  const scope = form.get('scope');
  const issued = {
    access_token: token,
    token_type: 'Bearer',
    expires_in: context.tokenTtlSeconds,
    ...(scope === null ? {} : { scope }),
  };
  res.setHeader('cache-control', NO_STORE['cache-control']);
  res.setHeader('pragma', NO_STORE.pragma);
  sendJson(res, 200, JSON.stringify(issued));
}
