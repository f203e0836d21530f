/**
 * `validate`'s effective configuration: every value the run will use, the layer it came from
 * (flag, environment variable, file:line, default) and secrets redacted.
 */
import { formatPath, type Source } from '../../dsl/issues.js';
import type { Provenance } from '../../dsl/layers.js';
import {
  chooseVariant,
  CONFIG_JSON_SCHEMA,
  type JsonSchemaNode,
} from '../../dsl/schema/config-json-schema.js';
import type { Redactor } from './redact.js';
import { formatSource } from './user-errors.js';

interface Row {
  readonly key: string;
  readonly value: string;
  readonly source: string;
}

/** The effective configuration as aligned text. */
export function renderConfigView(
  raw: Readonly<Record<string, unknown>>,
  provenance: Provenance,
  redactor: Redactor,
): string {
  const rows: Row[] = [];
  const add = (path: readonly (string | number)[], value: unknown, source: Source): void => {
    rows.push({
      key: formatPath(path),
      value: show(redactor.value(path, value)),
      source: formatSource(source),
    });
  };
  walk(CONFIG_JSON_SCHEMA, raw, [], provenance, add);
  // reduce, not Math.max(...rows): a spread of 100,000 rows overflows the stack.
  const keyWidth = rows.reduce((width, r) => Math.max(width, r.key.length), 0);
  const valueWidth = Math.min(
    60,
    rows.reduce((width, r) => Math.max(width, r.value.length), 0),
  );
  const lines = rows.map(
    (r) => `  ${r.key.padEnd(keyWidth)}  ${r.value.padEnd(valueWidth)}  ${r.source}`,
  );
  return (
    ['Effective configuration (flags > environment > file > defaults):', ...lines].join('\n') + '\n'
  );
}

function walk(
  node: JsonSchemaNode | undefined,
  value: unknown,
  path: (string | number)[],
  provenance: Provenance,
  add: (path: readonly (string | number)[], value: unknown, source: Source) => void,
): void {
  const shape = node === undefined ? undefined : chooseVariant(node, value);
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((item, i) => walk(shape?.items, item, [...path, i], provenance, add));
    return;
  }
  if (!isObject(value)) {
    add(path, value, provenance.sourceOf(path));
    return;
  }
  for (const [key, item] of Object.entries(value))
    walk(shape?.properties?.[key], item, [...path, key], provenance, add);
  const defaults = Object.entries(shape?.properties ?? {}).filter(
    ([key, p]) => !(key in value) && p.default !== undefined,
  );
  for (const [key, property] of defaults)
    walk(property, property.default, [...path, key], DEFAULTS, add);
  if (Object.keys(value).length === 0 && defaults.length === 0 && path.length > 0)
    add(path, value, provenance.sourceOf(path));
}

const DEFAULTS: Provenance = { sourceOf: () => ({ kind: 'default' }), isInterpolated: () => false };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
