/** Authentication of requests to the target (DESIGN.md §4, spec §5): oauth2, bearer, basic. */
import * as z from 'zod';
import { absoluteUrl, duration, nonEmpty, positiveInt, template } from './fields.js';

/** The `auth` key. */
export function authSchema() {
  const oauth2 = z.strictObject({
    type: z.literal('oauth2'),
    token_url: absoluteUrl('OAuth 2.0 token endpoint', ['https', 'http']),
    client_id: nonEmpty('OAuth 2.0 client id'),
    client_secret: nonEmpty('OAuth 2.0 client secret'),
    grant_type: nonEmpty('OAuth 2.0 grant type').default('client_credentials'),
    scope: nonEmpty('OAuth 2.0 scope').optional(),
    audience: nonEmpty('OAuth 2.0 audience').optional(),
    client_auth: z
      .enum(['body', 'basic'], { error: 'body or basic (how the client authenticates)' })
      .default('body')
      .describe('body: id and secret in the form; basic: HTTP Basic header'),
    refresh_before_expiry: duration('refresh the token this long before it expires').optional(),
    max_retries: positiveInt('token fetch retries', 0).default(3),
  });

  const bearer = z.strictObject({
    type: z.literal('bearer'),
    token: template('bearer token; {{variables}} allowed, e.g. an extracted {{token}}', true),
  });

  const basic = z.strictObject({
    type: z.literal('basic'),
    username: template('basic auth user name'),
    password: template('basic auth password'),
  });

  return z.discriminatedUnion('type', [oauth2, bearer, basic], {
    error: 'an auth mapping whose type is oauth2, bearer or basic',
  });
}
