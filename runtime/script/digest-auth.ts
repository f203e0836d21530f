/**
 * HTTP Digest authentication (RFC 7616) for a scenario's `{ auth: 'digest' }` call
 * (sandbox/isolate/http-api.ts sends the challenge request, then the answer): the server's
 * WWW-Authenticate challenge parsed, the Authorization header built and its response computed by
 * http-auth-utils on node:crypto, with qop `auth`:
 *
 *   HA1      = H(username ":" realm ":" password)     (-sess: H(HA1 ":" nonce ":" cnonce))
 *   HA2      = H(method ":" uri)
 *   response = H(HA1 ":" nonce ":" nc ":" cnonce ":" "auth" ":" HA2)
 *
 * H is MD5 or SHA-256 as the challenge's `algorithm` says (MD5 when it says none). A challenge
 * without qop `auth` (RFC 2069's, or auth-int only) is refused with what it offered.
 */
import { createHash, randomBytes } from 'node:crypto';
import { buildAuthorizationHeader, DIGEST, parseWWWAuthenticateHeader } from 'http-auth-utils';

/** The challenge's algorithm → node:crypto's name, and whether it is a session variant. */
const ALGORITHMS: Readonly<Record<string, { hash: string; session: boolean }>> = {
  MD5: { hash: 'md5', session: false },
  'MD5-SESS': { hash: 'md5', session: true },
  'SHA-256': { hash: 'sha256', session: false },
  'SHA-256-SESS': { hash: 'sha256', session: true },
};

/** What the Authorization header answers. */
export interface DigestRequest {
  readonly challenge: string;
  readonly username: string;
  readonly password: string;
  readonly method: string;
  /** The request target: path and query. */
  readonly uri: string;
}

/** The Authorization header answering `request.challenge`; throws, saying why, when it cannot. */
export function digestAuthorization(
  request: DigestRequest,
  cnonce = randomBytes(8).toString('hex'),
): string {
  let data;
  try {
    data = parseWWWAuthenticateHeader(request.challenge, [DIGEST]).data;
  } catch {
    throw new Error(`auth 'digest': the server's challenge is no Digest one: ${request.challenge}`);
  }
  const offered = (data.qop ?? '').split(',').map((q) => q.trim());
  if (!offered.includes('auth'))
    throw new Error(`auth 'digest': the server offers no qop=auth (qop: "${data.qop ?? ''}")`);
  const algorithm = ALGORITHMS[(data.algorithm ?? 'MD5').toUpperCase()];
  if (algorithm === undefined)
    throw new Error(
      `auth 'digest': algorithm ${data.algorithm} is not one of ${Object.keys(ALGORITHMS).join(', ')}`,
    );
  const hex = (text: string) => createHash(algorithm.hash).update(text).digest('hex');
  const { username, password, method, uri } = request;
  const nc = '00000001';
  const base = hex(`${username}:${data.realm}:${password}`);
  const response = DIGEST.computeHash({
    ...(algorithm.session ? { ha1: hex(`${base}:${data.nonce}:${cnonce}`) } : {}),
    algorithm: algorithm.hash,
    method,
    uri,
    realm: data.realm,
    username,
    password,
    nonce: data.nonce,
    nc,
    cnonce,
    qop: 'auth',
  });
  return buildAuthorizationHeader(DIGEST, {
    username,
    realm: data.realm,
    nonce: data.nonce,
    uri,
    response,
    ...(data.algorithm === undefined ? {} : { algorithm: data.algorithm }),
    ...(data.opaque === undefined ? {} : { opaque: data.opaque }),
    cnonce,
    qop: 'auth',
    nc,
  });
}
