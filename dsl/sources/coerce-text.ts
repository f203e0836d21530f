/**
 * Turns the text of an environment variable or flag into the type its configuration key takes,
 * reading the type from the config schema, so the schema stays the single source of truth:
 * numbers and booleans are converted, lists split, mappings parsed as JSON. Text that does not
 * convert is passed on unchanged, and the schema then reports it with the key's expected type.
 */
import { CONFIG_JSON_SCHEMA, type JsonSchemaNode } from '../schema/config-json-schema.js';
import { err, ok, type Result } from '../result.js';

type KeyKind =
  'number' | 'boolean' | 'string' | 'string-list' | 'json' | 'number-or-string' | 'text-or-json';

function kindOf(node: JsonSchemaNode): KeyKind {
  const variants = node.anyOf ?? node.oneOf;
  if (variants !== undefined) {
    const types = variants.map((v) => v.type);
    if (types.includes('integer') || types.includes('number')) return 'number-or-string';
    if (types.includes('string')) return 'text-or-json';
    return 'json';
  }
  switch (node.type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      // A list whose items may be text (thresholds: an expression, or a mapping only a file
      // or a scenario's options can write) takes text items in a variable or a flag.
      return takesText(node.items) ? 'string-list' : 'json';
    case 'object':
      return 'json';
    default:
      return 'string';
  }
}

/** Whether a node accepts a string, alone or as one of its variants. */
function takesText(node: JsonSchemaNode | undefined): boolean {
  if (node === undefined) return false;
  return (
    node.type === 'string' || (node.anyOf ?? node.oneOf ?? []).some((v) => v.type === 'string')
  );
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Converts `text` for top-level key `key`. `separator` splits lists (";" for environment
 * variables); returns the error text when JSON is malformed.
 */
export function coerceText(key: string, text: string, separator?: string): Result<unknown, string> {
  const node = CONFIG_JSON_SCHEMA.properties[key];
  const kind = node === undefined ? 'string' : kindOf(node);
  const trimmed = text.trim();
  switch (kind) {
    case 'number':
      return ok(NUMBER.test(trimmed) ? Number(trimmed) : text);
    case 'number-or-string':
      return ok(NUMBER.test(trimmed) ? Number(trimmed) : text);
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(trimmed)) return ok(true);
      if (/^(false|0|no|off)$/i.test(trimmed)) return ok(false);
      return ok(text);
    case 'string-list':
      return ok(
        separator === undefined
          ? [text]
          : text
              .split(separator)
              .map((part) => part.trim())
              .filter((part) => part !== ''),
      );
    case 'json':
      return parseJson(text);
    case 'text-or-json':
      return /^[[{]/.test(trimmed) ? parseJson(text) : ok(text);
    default:
      return ok(text);
  }
}

function parseJson(text: string): Result<unknown, string> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    return err(`JSON (${(error as Error).message})`);
  }
}
