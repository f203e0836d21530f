/**
 * The one redaction step every output goes through (DESIGN.md §9): values that are secrets by
 * name or came from ${ENV}, and any known secret string (a client secret, a token fetched at run
 * time) wherever it appears in text.
 */
import type { Provenance } from '../../dsl/layers.js';
import { isSecretPath, REDACTED } from '../../dsl/secrets.js';

/** Redacts configuration values by path and known secret strings in free text. */
export class Redactor {
  readonly #secrets = new Set<string>();

  constructor(private readonly provenance?: Provenance) {}

  /** Remembers a secret string so that `text` hides it (ignores very short strings). */
  add(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= 4) this.#secrets.add(secret);
  }

  /** True when the configuration value at `path` must not be shown. */
  isSecret(path: readonly (string | number)[]): boolean {
    return isSecretPath(path) || (this.provenance?.isInterpolated(path) ?? false);
  }

  /** A configuration value as it may be shown. */
  value(path: readonly (string | number)[], value: unknown): unknown {
    return this.isSecret(path) ? REDACTED : value;
  }

  /** Free text with every known secret replaced. */
  text(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    return out.replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`);
  }
}
