/**
 * The secret strings of one load, and text with them taken out. Loading collects them from every
 * layer before anything is validated (so a layer that fails still has its secrets known), and
 * every issue and warning it returns goes through `redactIssue`; the cli's Redactor uses the same
 * set for everything it prints or writes. What is a secret is decided in dsl/secrets.ts.
 */
import { formatPath, type ConfigIssue, type ConfigWarning } from './issues.js';
import type { Layer } from './layers.js';
import {
  isSecretPath,
  REDACTED,
  redactByShape,
  secretQueryValues,
  userinfoIn,
  withoutOpenUrl,
} from './secrets.js';

/**
 * Shorter strings are hidden where the configuration is shown (by path) but not searched for in
 * free text, where replacing every "10" or "on" would make the text unreadable.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Characters of a message (an issue, a warning, a run-time message such as a scenario's error)
 * shown: a longer one is cut before it is redacted, so no message costs more than a few KiB of
 * redaction on the main thread, however long the name or error in it.
 */
export const MAX_MESSAGE_CHARS = 4096;

/** Known secret strings, and redaction of free text. */
export class SecretSet {
  readonly #strings = new Set<string>();
  /** Longest first, so a secret that contains another is replaced whole; rebuilt on add. */
  #ordered: string[] | undefined;

  /** Remembers a secret string, and its JSON-escaped form (reports and errors quote values). */
  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH) return;
    this.#strings.add(secret);
    this.#strings.add(JSON.stringify(secret).slice(1, -1));
    this.#ordered = undefined;
  }

  /**
   * Every secret a layer holds: strings at secret paths or built from ${NAME} (and everything
   * below such a path), the layer's own secret values, and the userinfo of any URL in it.
   */
  addLayer(layer: Layer): void {
    for (const value of layer.secretValues) this.add(value);
    const visit = (node: unknown, path: (string | number)[], secret: boolean): void => {
      const hidden = secret || isSecretPath(path) || layer.secretPaths.has(formatPath(path));
      if (typeof node === 'string') {
        if (hidden) this.add(node);
        for (const userinfo of userinfoIn(node)) this.add(userinfo);
        for (const value of secretQueryValues(node)) this.add(value);
      } else if (Array.isArray(node)) {
        node.forEach((item, i) => visit(item, [...path, i], hidden));
      } else if (node !== null && typeof node === 'object') {
        for (const [key, item] of Object.entries(node)) visit(item, [...path, key], hidden);
      }
    };
    visit(layer.values, [], false);
  }

  /** Text with every known secret, URL userinfo and `Bearer …`/`Basic …` credential replaced. */
  redact(text: string): string {
    this.#ordered ??= [...this.#strings].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.#ordered) out = out.split(secret).join(REDACTED);
    return redactByShape(out);
  }

  /**
   * A message as it may be shown: cut to MAX_MESSAGE_CHARS (and the longest known secret, so a
   * secret the cut would split is still replaced whole; a URL the cut leaves open is cut at its
   * scheme), then redacted.
   */
  redactMessage(text: string): string {
    if (text.length <= MAX_MESSAGE_CHARS) return this.redact(text);
    this.#ordered ??= [...this.#strings].sort((a, b) => b.length - a.length);
    const cut = withoutOpenUrl(text.slice(0, MAX_MESSAGE_CHARS + (this.#ordered[0]?.length ?? 0)));
    return `${this.redact(cut)}… (${text.length - cut.length} more characters not shown)`;
  }

  /** An issue as it may be shown: what was expected, given and hinted, redacted. */
  redactIssue(issue: ConfigIssue): ConfigIssue {
    return {
      ...issue,
      expected: this.redactMessage(issue.expected),
      actual: this.redactMessage(issue.actual),
      ...(issue.hint === undefined ? {} : { hint: this.redactMessage(issue.hint) }),
    };
  }

  /** A warning as it may be shown. */
  redactWarning(warning: ConfigWarning): ConfigWarning {
    return { ...warning, message: this.redactMessage(warning.message) };
  }
}
