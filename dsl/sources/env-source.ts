/**
 * Environment layer: BARRAGE_<KEY> sets top-level key <key> (DESIGN.md §4);
 * BARRAGE_THRESHOLDS holds expressions separated by ";". Unknown BARRAGE_* names are warned about
 * with a "did you mean", since a typo there would otherwise be silently ignored.
 */
import { closest } from '../grammar/did-you-mean.js';
import type { ConfigIssue, ConfigWarning, Source } from '../issues.js';
import type { Layer } from '../layers.js';
import { CONFIG_KEYS } from '../schema/config-schema.js';
import { holdsSecrets, REDACTED } from '../secrets.js';
import { coerceText } from './coerce-text.js';

/** Prefix of every configuration environment variable. */
export const ENV_PREFIX = 'BARRAGE_';

/** Variables that start with the prefix but are not configuration keys. */
const NOT_CONFIG = new Set<string>([]);

/** The environment variable that sets a top-level key. */
export function envNameOf(key: string): string {
  return ENV_PREFIX + key.toUpperCase();
}

/** Reads BARRAGE_* variables into a layer. */
export function readEnvLayer(env: Readonly<Record<string, string | undefined>>): {
  layer: Layer;
  issues: ConfigIssue[];
  warnings: ConfigWarning[];
} {
  const values: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  const warnings: ConfigWarning[] = [];
  const secretValues = new Set<string>();
  const known = CONFIG_KEYS.map(envNameOf);
  for (const [name, text] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || text === undefined || NOT_CONFIG.has(name)) continue;
    const key = name.slice(ENV_PREFIX.length).toLowerCase();
    const source: Source = { kind: 'env', name };
    if (!CONFIG_KEYS.includes(key)) {
      const guess = closest(name, known);
      warnings.push({
        code: 'unknown_env',
        source,
        path: [],
        message: `unknown environment variable ${name} is ignored${guess === undefined ? '' : ` (did you mean ${guess}?)`}`,
      });
      continue;
    }
    // Malformed text of a key that holds secrets is hidden whole: which part is the secret is
    // what could not be parsed.
    const hidden = holdsSecrets(key);
    if (hidden) secretValues.add(text);
    const coerced = coerceText(key, text, ';');
    if (!coerced.ok) {
      issues.push({
        code: 'invalid_value',
        source,
        path: [key],
        // The parser's message may quote a piece of the text: then only say what was expected.
        expected: hidden && /["']/.test(coerced.error) ? 'JSON' : coerced.error,
        actual: hidden ? `${REDACTED} (${text.length} characters)` : JSON.stringify(text),
      });
      continue;
    }
    values[key] = coerced.value;
    names.set(key, name);
  }
  const layer: Layer = {
    name: 'env',
    values,
    sourceOf: (path) => ({
      kind: 'env',
      name: names.get(String(path[0])) ?? envNameOf(String(path[0])),
    }),
    secretPaths: new Set(),
    secretValues,
  };
  return { layer, issues, warnings };
}
