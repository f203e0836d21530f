/**
 * Problems in what the user wrote, as data. Every layer (file, env, flags, schema, grammars,
 * compile) reports ConfigIssues; cli/render/user-errors.ts is the one place they become text.
 */

/** Where a value came from. */
export type Source =
  | {
      readonly kind: 'file';
      readonly file: string;
      readonly line?: number;
      readonly column?: number;
    }
  | { readonly kind: 'flag'; readonly flag: string }
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'default' }
  | { readonly kind: 'scenario'; readonly file: string }
  /** A HAR file and, for what came from one recorded request, the index in log.entries. */
  | { readonly kind: 'har'; readonly file: string; readonly entry?: number };

/** Stable codes: tests and docs refer to these, never to message text. */
export type IssueCode =
  | 'file_not_found'
  | 'file_unreadable'
  | 'file_too_large'
  | 'parse_error'
  | 'too_deep'
  | 'alias_limit'
  | 'forbidden_key'
  | 'unknown_key'
  | 'invalid_type'
  | 'invalid_value'
  | 'missing_value'
  | 'missing_env'
  | 'invalid_duration'
  | 'invalid_threshold'
  | 'invalid_placeholder'
  | 'invalid_jsonpath'
  | 'invalid_regex'
  | 'invalid_selector'
  | 'unknown_endpoint'
  | 'unknown_check'
  | 'unknown_tag'
  | 'unknown_variable'
  | 'feeder_error'
  | 'har_error'
  | 'invalid_har_filter'
  | 'script_error'
  | 'type_error';

/** One problem: where, which key, what was expected and what was given. */
export interface ConfigIssue {
  readonly code: IssueCode;
  readonly source: Source;
  /** Key path inside the configuration, e.g. ['endpoints', 0, 'url']; empty for the whole input. */
  readonly path: readonly (string | number)[];
  readonly expected: string;
  /** The given value as the user should see it (already redacted when secret). */
  readonly actual: string;
  readonly hint?: string;
}

/** Something suspicious but not fatal; printed on stderr, never stops the run. */
export interface ConfigWarning {
  readonly code: 'unknown_env' | 'unreachable_endpoint' | 'insecure_tls' | 'har_skipped' | 'other';
  readonly source: Source;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Thrown by the edges (cli) when loading fails; carries every issue found, never just the first. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(`${issues.length} configuration problem(s)`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** Renders a key path the way users write it: endpoints[0].url */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}
