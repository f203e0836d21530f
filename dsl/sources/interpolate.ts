/**
 * `${NAME}` substitution from the environment, applied to parsed string values (never to raw
 * text, so a variable's value cannot inject YAML). `${NAME:-fallback}` uses the fallback when
 * NAME is unset or empty; `$${` writes a literal `${`. Values built from a reference are marked
 * secret: they are redacted wherever the configuration is shown. The exception is `target`: a host
 * from the environment (`target: ${TARGET}`, as CI sets it) is no secret, and would hide every url
 * of every report; only the userinfo (a password) in it is.
 */
import type { ConfigIssue, Source } from '../issues.js';
import { formatPath } from '../issues.js';
import { userinfoIn } from '../secrets.js';

/** Top-level keys whose value from the environment is shown: only its userinfo is secret. */
const PUBLIC_KEYS = new Set(['target']);

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The interpolated value, the paths that used a reference, and an issue per missing variable. */
export interface Interpolated {
  readonly value: unknown;
  readonly secretPaths: ReadonlySet<string>;
  /** The variables' values that were substituted. */
  readonly secretValues: ReadonlySet<string>;
  readonly issues: readonly ConfigIssue[];
}

/** Replaces references in every string of `value`. */
export function interpolateEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  locate: (path: readonly (string | number)[]) => Source,
): Interpolated {
  const secretPaths = new Set<string>();
  const secretValues = new Set<string>();
  const issues: ConfigIssue[] = [];
  const visit = (node: unknown, path: (string | number)[]): unknown => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return node;
      const shown = path.length === 1 && PUBLIC_KEYS.has(String(path[0]));
      let used = false;
      const out = node.replace(
        REFERENCE,
        (whole, name: string | undefined, fallback: string | undefined) => {
          if (name === undefined) return '${';
          used = true;
          const found = env[name];
          if (found !== undefined && found !== '') {
            if (!shown) secretValues.add(found);
            else for (const userinfo of userinfoIn(found)) secretValues.add(userinfo);
            return found;
          }
          if (fallback !== undefined) return fallback;
          if (found === undefined) {
            issues.push({
              code: 'missing_env',
              source: locate(path),
              path,
              expected: `environment variable ${name} to be set`,
              actual: `${whole} with ${name} unset`,
            });
          }
          return '';
        },
      );
      if (used && !shown) secretPaths.add(formatPath(path));
      else if (used) for (const userinfo of userinfoIn(out)) secretValues.add(userinfo);
      return out;
    }
    if (Array.isArray(node)) return node.map((item, i) => visit(item, [...path, i]));
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        Object.defineProperty(out, key, {
          value: visit(item, [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return node;
  };
  return { value: visit(value, []), secretPaths, secretValues, issues };
}

/** Text that interpolation turns back into itself: every `${` written `$${` (for generated files). */
export function escapeInterpolation(text: string): string {
  // A function, since in a replacement string "$$" would mean one "$".
  return text.replaceAll('${', () => '$${');
}
