/**
 * The environment of a scripted segment's child process (child-host.ts): only what Node and the
 * request path read, never the rest of barrage's. The child runs a scenario's code; the isolate
 * cannot read the environment, but the child needs none of it, so tokens, cloud keys and the
 * like that barrage was started with stay out of its memory (and its /proc/<pid>/environ). A
 * scenario's own variables reach it through the plan (`--env`, `scenario_env`), not from here.
 */

/** Variables kept by name: the binary's search path and home, time zone, locale, TLS and tmp. */
const KEPT = new Set([
  'PATH',
  'HOME',
  'TMPDIR',
  'TZ',
  'LANG',
  'LANGUAGE',
  // Node's own: its flags (a user's --max-old-space-size, --use-openssl-ca), the CA certificates
  // the request path trusts besides its bundle, OpenSSL's, and coverage (`npm run coverage`).
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'NODE_USE_SYSTEM_CA',
  'NODE_V8_COVERAGE',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'OPENSSL_CONF',
  'UV_THREADPOOL_SIZE',
]);

/** Variables kept by prefix: the locale's categories. */
const KEPT_PREFIXES = ['LC_'];

/** The part of `env` a scripted segment's child is started with. */
export function childEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && (KEPT.has(name) || KEPT_PREFIXES.some((p) => name.startsWith(p))))
      kept[name] = value;
  return kept;
}
