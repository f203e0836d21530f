/** Parses a schema-checked template and replaces its {{$env NAME}} parts with their values. */
import { parseTemplate } from '../grammar/placeholder.js';
import type { Template, TemplatePart } from '../plan/template.js';

/**
 * Looks up an environment variable for {{$env NAME}}; reports a problem at `path` when unset, or
 * when it holds CR, LF or NUL and goes into a url or a header (`singleLine`).
 */
export type EnvResolver = (
  name: string,
  path: readonly (string | number)[],
  singleLine: boolean,
) => string;

/** The compiled template, with adjacent literals joined. */
export function resolveTemplate(
  text: string,
  path: readonly (string | number)[],
  env: EnvResolver,
  singleLine = false,
): Template {
  const parsed = parseTemplate(text);
  if (!parsed.ok) return [text];
  const parts: TemplatePart[] = [];
  for (const part of parsed.value) {
    const value =
      typeof part === 'object' && 'fn' in part && part.fn === 'env'
        ? env(part.name, path, singleLine)
        : part;
    const last = parts[parts.length - 1];
    if (typeof value === 'string' && typeof last === 'string')
      parts[parts.length - 1] = last + value;
    else if (value !== '') parts.push(value);
  }
  return parts;
}
