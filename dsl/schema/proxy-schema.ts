/**
 * The `proxy` key (docs/configuration.md, "Proxies"): a proxy URL, `{ url, no_proxy }`, or `false`
 * to ignore the proxy variables of the environment. Proxy URLs are read here for the key and for
 * the variables alike (dsl/compile/proxy.ts), so both refuse the same things.
 */
import { isAbsoluteUrl } from '../../model/request/url-rules.js';
import * as z from 'zod';
import { basicFromUserinfo } from '../grammar/url-userinfo.js';
import type { ProxyServer } from '../../model/plan/proxy-plan.js';
import { err, ok, type Result } from '../result.js';

/** What a proxy URL must be (the `expected` of its issues). */
export const PROXY_URL_EXPECTED = 'an http:// proxy URL such as http://proxy.example:3128';

/**
 * A proxy URL → its server. Written without a scheme it is http:// (as curl reads it); the
 * port defaults to 80; user info becomes Basic credentials. The error is what was wrong, never
 * the text itself (it may hold a password).
 */
export function parseProxyUrl(text: string): Result<ProxyServer, string> {
  let url: URL;
  try {
    url = new URL(isAbsoluteUrl(text) ? text : `http://${text}`);
  } catch {
    return err('not a URL');
  }
  if (url.protocol !== 'http:') return err(`a ${url.protocol.slice(0, -1)}:// URL`);
  if (url.hostname === '') return err('a URL without a host');
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    return err('a URL with a path, query or fragment');
  const authorization = basicFromUserinfo(url);
  if (!authorization.ok) return authorization;
  return ok({
    origin: `http://${url.hostname}:${url.port || '80'}`,
    authorization: authorization.value,
  });
}

/** A NO_PROXY list: comma-separated text, or a list of entries. */
export function noProxyEntries(value: string | readonly string[]): string[] {
  const parts = typeof value === 'string' ? value.split(/[\s,]+/) : value;
  return parts.map((p) => p.trim().toLowerCase()).filter((p) => p !== '');
}

function proxyUrl() {
  return z.string({ error: PROXY_URL_EXPECTED }).superRefine((text, ctx) => {
    const parsed = parseProxyUrl(text);
    if (!parsed.ok)
      ctx.addIssue({ code: 'custom', message: `${PROXY_URL_EXPECTED}, not ${parsed.error}` });
  });
}

/** The `proxy` key. */
export function proxySchema() {
  const noProxy = z
    .union([z.string(), z.array(z.string())], {
      error: 'hosts that bypass the proxy: a comma-separated string or a list',
    })
    .describe('Hosts that bypass the proxy (NO_PROXY syntax); replaces NO_PROXY');
  return z.union(
    [
      z.literal(false),
      proxyUrl(),
      z.strictObject({ url: proxyUrl(), no_proxy: noProxy.optional() }),
    ],
    { error: `false, ${PROXY_URL_EXPECTED}, or a mapping { url, no_proxy }` },
  );
}
