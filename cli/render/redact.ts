/**
 * The one redaction step every output of a loaded run goes through (DESIGN.md §9): the
 * configuration view, the plan view, reports and raw results, the dashboard, run-time messages.
 * Values are hidden by path (dsl/secrets.ts: secret names, token-like headers, ${ENV} values),
 * and any text has the load's known secret strings, URL userinfo and `Bearer …`/`Basic …`
 * credentials replaced (dsl/secret-set.ts).
 */
import type { Provenance } from '../../dsl/layers.js';
import type { SecretSet } from '../../dsl/secret-set.js';
import { isSecretPath, REDACTED } from '../../dsl/secrets.js';

/** What a redactor needs of a load (a Loaded fits). */
export interface RedactionSource {
  readonly provenance: Provenance;
  readonly secrets: SecretSet;
}

/** Redacts configuration values by path, and secrets in free text. */
export class Redactor {
  constructor(private readonly source: RedactionSource) {}

  /** True when the configuration value at `path` must not be shown at all. */
  isSecret(path: readonly (string | number)[]): boolean {
    return isSecretPath(path) || this.source.provenance.isInterpolated(path);
  }

  /** A configuration value as it may be shown. */
  value(path: readonly (string | number)[], value: unknown): unknown {
    if (this.isSecret(path)) return REDACTED;
    return typeof value === 'string' ? this.text(value) : value;
  }

  /** A copy of a configuration tree (the merged input) with every value as it may be shown. */
  tree(value: unknown, path: readonly (string | number)[] = []): unknown {
    if (this.isSecret(path)) return REDACTED;
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item, i) => this.tree(item, [...path, i]));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, this.tree(v, [...path, k])]),
      );
    }
    return value;
  }

  /** Free text with every secret replaced. */
  text(text: string): string {
    return this.source.secrets.redact(text);
  }

  /** A message (an error, a warning) cut to a few KiB, then redacted (SecretSet.redactMessage). */
  message(text: string): string {
    return this.source.secrets.redactMessage(text);
  }
}
