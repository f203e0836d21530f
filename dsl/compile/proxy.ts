/**
 * The run's proxies (docs/configuration.md, "Proxies"): the `proxy` key when set (`false`: none),
 * else the environment as curl reads it: https_proxy/HTTPS_PROXY for https:// origins,
 * http_proxy/HTTP_PROXY for http:// ones, no_proxy/NO_PROXY for the hosts that bypass both; the
 * lower-case name wins, an empty value is unset. A malformed variable is an issue naming it.
 */
import type { ConfigIssue } from '../issues.js';
import type { ProxyPlan, ProxyServer } from '../../model/plan/proxy-plan.js';
import { err, ok, type Result } from '../result.js';
import type { Config } from '../schema/config-schema.js';
import { noProxyEntries, parseProxyUrl, PROXY_URL_EXPECTED } from '../schema/proxy-schema.js';
import { REDACTED } from '../secrets.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy plan of a validated `proxy` key and the environment. */
export function compileProxy(
  proxy: Config['proxy'],
  env: Env,
): Result<ProxyPlan | undefined, ConfigIssue[]> {
  if (proxy === false) return ok(undefined);
  if (proxy !== undefined) {
    const parsed = parseProxyUrl(typeof proxy === 'string' ? proxy : proxy.url);
    if (!parsed.ok) throw new Error(`a validated proxy URL failed to parse: ${parsed.error}`);
    const noProxy =
      typeof proxy === 'string' || proxy.no_proxy === undefined
        ? envNoProxy(env)
        : noProxyEntries(proxy.no_proxy);
    return ok({ http: parsed.value, https: parsed.value, noProxy });
  }
  const issues: ConfigIssue[] = [];
  const fromEnv = (names: readonly string[]): ProxyServer | undefined => {
    const name = firstSet(env, names);
    if (name === undefined) return undefined;
    const text = env[name]!;
    const parsed = parseProxyUrl(text);
    if (parsed.ok) return parsed.value;
    issues.push(issue(name, text, parsed.error));
    return undefined;
  };
  const http = fromEnv(['http_proxy', 'HTTP_PROXY']);
  const https = fromEnv(['https_proxy', 'HTTPS_PROXY']);
  if (issues.length > 0) return err(issues);
  if (http === undefined && https === undefined) return ok(undefined);
  return ok({ http, https, noProxy: envNoProxy(env) });
}

function envNoProxy(env: Env): string[] {
  const name = firstSet(env, ['no_proxy', 'NO_PROXY']);
  return noProxyEntries(name === undefined ? '' : env[name]!);
}

/** The first of `names` set in the environment, the lower-case one first; an empty value is unset. */
function firstSet(env: Env, names: readonly string[]): string | undefined {
  return names.find((n) => (env[n] ?? '') !== '');
}

/** A malformed proxy URL; shown only when it holds no credentials (no `@`). */
function issue(name: string, text: string, what: string): ConfigIssue {
  return {
    code: 'invalid_value',
    source: { kind: 'env', name },
    path: [],
    expected: PROXY_URL_EXPECTED,
    actual: `${text.includes('@') ? `${REDACTED} (${text.length} characters)` : JSON.stringify(text)}: ${what}`,
  };
}
