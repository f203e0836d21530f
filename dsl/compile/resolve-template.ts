/**
 * Parses a schema-checked template, replaces its {{$env NAME}} parts with their values and fixes
 * how each {{name}} is encoded by where the template sits (Encoding, model/plan/template.ts).
 */
import { parseTemplate } from '../grammar/placeholder.js';
import type { Encoding, Template, TemplatePart } from '../../model/plan/template.js';

/**
 * Looks up an environment variable for {{$env NAME}}; reports a problem at `path` when unset, or
 * when it holds CR, LF or NUL and goes into a url or a header (`singleLine`).
 */
export type EnvResolver = (
  name: string,
  path: readonly (string | number)[],
  singleLine: boolean,
) => string;

/** Where a template sits: one line (url, header) or not, and how its variables are encoded. */
export interface TemplateContext {
  readonly singleLine?: boolean;
  /** Default 'raw'. */
  readonly encoding?: Encoding;
  /** Writes literal text (and {{$env}} values) as that context needs; default as it is. */
  readonly literal?: (text: string) => string;
}

/** The compiled template, with adjacent literals joined. */
export function resolveTemplate(
  text: string,
  path: readonly (string | number)[],
  env: EnvResolver,
  context: TemplateContext = {},
): Template {
  const { singleLine = false, encoding = 'raw', literal = (s: string) => s } = context;
  const parsed = parseTemplate(text);
  if (!parsed.ok) return [literal(text)];
  const parts: TemplatePart[] = [];
  for (const part of parsed.value) {
    let value: TemplatePart;
    if (typeof part === 'string') value = literal(part);
    else if ('fn' in part && part.fn === 'env') value = literal(env(part.name, path, singleLine));
    else if ('var' in part) value = { var: part.var, encoding: part.encoding ?? encoding };
    else value = part;
    const last = parts[parts.length - 1];
    if (typeof value === 'string' && typeof last === 'string')
      parts[parts.length - 1] = last + value;
    else if (value !== '') parts.push(value);
  }
  return parts;
}
