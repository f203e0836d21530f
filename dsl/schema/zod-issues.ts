/**
 * Zod issues → ConfigIssues: each gets the source of its value (file:line:col, flag, env var),
 * the key path, what was expected (the field builders' texts) and what was given (redacted
 * when secret), plus a "did you mean" for unknown keys and enum values.
 */
import type { core } from 'zod';
import { closest } from '../grammar/did-you-mean.js';
import type { ConfigIssue, IssueCode } from '../issues.js';
import type { Provenance } from '../layers.js';
import { isSecretPath, REDACTED } from '../secrets.js';
import { chooseVariant, CONFIG_JSON_SCHEMA, type JsonSchemaNode } from './config-json-schema.js';
import type { IssueParams } from './fields.js';
import { k6KeyHint } from './k6-spellings.js';

/** Converts every zod issue; `raw` is the merged input (to find discriminators and key lists). */
export function toConfigIssues(
  issues: readonly core.$ZodIssue[],
  provenance: Provenance,
  raw: unknown,
): ConfigIssue[] {
  return issues.flatMap((issue) => convert(issue, provenance, raw));
}

function convert(issue: core.$ZodIssue, provenance: Provenance, raw: unknown): ConfigIssue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const secret = (p: readonly (string | number)[]): boolean =>
    provenance.isInterpolated(p) || isSecretPath(p);
  const given = (p: readonly (string | number)[], value: unknown): string =>
    secret(p) ? REDACTED : describeValue(value);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const keyPath = [...path, key];
        const known = knownKeys(path, raw);
        const guess = closest(key, known);
        const hint =
          k6KeyHint(path, key, known) ??
          (guess === undefined ? undefined : `did you mean ${guess}?`);
        return {
          code: 'unknown_key',
          source: provenance.sourceOf(keyPath, true),
          path: keyPath,
          expected: known.length > 0 ? `one of ${known.join(', ')}` : 'no key here',
          actual: `unknown key "${key}"`,
          ...(hint === undefined ? {} : { hint }),
        };
      });
    case 'invalid_union': {
      if ('discriminator' in issue && typeof issue.discriminator === 'string') {
        const options = (issue as { options?: unknown[] }).options ?? [];
        const value = valueAt(raw, path);
        const guess = typeof value === 'string' ? closest(value, options.map(String)) : undefined;
        return [
          {
            code: value === undefined ? 'missing_value' : 'invalid_value',
            source: provenance.sourceOf(path),
            path,
            expected: `${issue.discriminator} to be one of ${options.join(', ')}`,
            actual: value === undefined ? 'nothing' : given(path, value),
            ...(guess === undefined ? {} : { hint: `did you mean ${guess}?` }),
          },
        ];
      }
      return [plain(issue, path, provenance, given, secret(path))];
    }
    default:
      return [plain(issue, path, provenance, given, secret(path))];
  }
}

function plain(
  issue: core.$ZodIssue,
  path: (string | number)[],
  provenance: Provenance,
  given: (p: readonly (string | number)[], value: unknown) => string,
  secret: boolean,
): ConfigIssue {
  const params = issue.code === 'custom' ? (issue.params as IssueParams | undefined) : undefined;
  const missing = issue.input === undefined && issue.code === 'invalid_type';
  const grammar = params !== undefined && params.code !== 'invalid_value';
  const code: IssueCode = missing
    ? 'missing_value'
    : (params?.code ?? (issue.code === 'invalid_type' ? 'invalid_type' : 'invalid_value'));
  return {
    code,
    source: provenance.sourceOf(path),
    path,
    expected: grammar ? GRAMMAR_EXPECTED[params.code] : friendly(issue),
    actual: missing ? 'nothing' : given(path, issue.input),
    ...(grammar
      ? { hint: secret ? secretHint(params) : issue.message }
      : params?.hint === undefined
        ? {}
        : { hint: params.hint }),
  };
}

/** A grammar's complaint about a secret value: where it failed, never the value or a part of it. */
function secretHint(params: IssueParams): string {
  return `${params.at ?? 'malformed'} (the value is secret, so it is not quoted)`;
}

const GRAMMAR_EXPECTED: Record<IssueParams['code'], string> = {
  invalid_duration: 'a duration such as 250ms, 30s, 1m30s or 2h',
  invalid_jsonpath: 'a JSONPath such as $.items[0].id',
  invalid_regex: 'a regular expression such as name="_csrf" value="([^"]+)"',
  invalid_selector: 'a CSS selector such as input[name=_csrf]',
  invalid_threshold: 'a threshold <metric>[{tag=value,…}]:<aggregate> <op> <number>',
  invalid_placeholder: 'text with well-formed {{placeholders}}',
  invalid_value: 'a valid value',
};

/** Our field builders set messages; zod's own start with "Invalid"/"Too" and get a plainer text. */
function friendly(issue: core.$ZodIssue): string {
  if (!/^(Invalid|Too (small|big)|Unrecognized)/.test(issue.message)) return issue.message;
  if (issue.code === 'invalid_type') return `a value of type ${issue.expected}`;
  if (issue.code === 'invalid_value')
    return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}

/** A short, safe rendering of what the user gave. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'a mapping';
  return typeof value;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

/** Keys the schema accepts at `path`, following the value's `type` through tagged unions. */
export function knownKeys(path: readonly (string | number)[], raw: unknown): string[] {
  let node: JsonSchemaNode | undefined = CONFIG_JSON_SCHEMA;
  for (let i = 0; node !== undefined; i++) {
    node = chooseVariant(node, valueAt(raw, path.slice(0, i)));
    const part = path[i];
    if (part === undefined || node === undefined) break;
    node = typeof part === 'number' ? node.items : (node.properties?.[part] ?? recordValues(node));
  }
  return Object.keys(node?.properties ?? {});
}

/** The schema of a record's values (extract: name → extractor), when the node is a record. */
function recordValues(node: JsonSchemaNode): JsonSchemaNode | undefined {
  return typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
}
