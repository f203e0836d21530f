/**
 * An endpoint's url, `query:` and body compiled into templates whose variables carry their
 * Encoding (model/plan/template.ts), fixed by where each placeholder sits:
 *
 *   url path and query      uri         ("A&B=C" → A%26B%3DC; literal text as written)
 *   url's first placeholder raw         (the url itself: resolved at request time)
 *   query: and form: values form        (URLSearchParams: "product 1" → product+1; names too)
 *   JSON body, a string value that is one placeholder
 *                           json-value  (a typed variable as its JSON type, else a JSON string)
 *   JSON body, other text   json        (inside the quotes, JSON-escaped; literal text too)
 *   text body, multipart    raw
 *
 * {{$raw name}} stays raw everywhere.
 */
import { startsWithVariable } from '../grammar/placeholder.js';
import { encoderOf, formEncode } from '../../model/request/encode-value.js';
import { joinUrl, originOfUrl } from '../../model/request/url-rules.js';
import type { BodyPlan, MultipartPart } from '../../model/plan/endpoint-plan.js';
import type { Template, TemplatePart, VariablePart } from '../../model/plan/template.js';
import type { Config } from '../schema/config-schema.js';
import { multipartFileKey, type MultipartFiles } from '../sources/multipart-files.js';
import { resolveTemplate, type EnvResolver } from './resolve-template.js';

type EndpointConfig = NonNullable<Config['endpoints']>[number];
type FormMap = NonNullable<EndpointConfig['form']>;
type Path = readonly (string | number)[];

/** The media type a multipart file gets when content_type is not given. */
const DEFAULT_FILE_TYPE = 'application/octet-stream';

/** An endpoint's url compiled: its origin and its path template (the whole url, `fromVariable`). */
export interface CompiledUrl {
  readonly origin: string;
  readonly path: Template;
  readonly fromVariable: boolean;
}

/**
 * The url joined to the target, split into its origin and its path and query with placeholders
 * percent-encoded. A url that starts with a placeholder is the url itself, resolved at request
 * time (`fromVariable`): its origin is the target's, and that first placeholder is raw.
 */
export function compileUrl(url: string, target: string | undefined, env: EnvResolver): CompiledUrl {
  const context = { singleLine: true, encoding: 'uri' } as const;
  if (startsWithVariable(url)) {
    const [first, ...rest] = resolveTemplate(url, ['url'], env, context);
    const name = (first as VariablePart).var;
    return {
      origin: originOf(target ?? ''),
      path: [{ var: name, encoding: 'raw' }, ...rest],
      fromVariable: true,
    };
  }
  const absolute = joinUrl(target, url);
  const origin = originOf(absolute);
  const rest = absolute.slice(origin.length);
  const path = resolveTemplate(rest.startsWith('/') ? rest : `/${rest}`, ['url'], env, context);
  return { origin: origin.toLowerCase(), path, fromVariable: false };
}

/** scheme://host:port of an absolute url (lower case), or the text itself. */
function originOf(url: string): string {
  return (originOfUrl(url) ?? url).toLowerCase();
}

/** `query:` or `form:` as form-encoded text: name=value&name=value, a list repeating its name. */
export function compileForm(map: FormMap, key: 'query' | 'form', env: EnvResolver): Template {
  const parts: TemplatePart[] = [];
  for (const [name, given] of Object.entries(map)) {
    const values = Array.isArray(given) ? given : [given];
    values.forEach((value, i) => {
      if (parts.length > 0) parts.push('&');
      parts.push(`${formEncode(name)}=`);
      const path = Array.isArray(given) ? [key, name, i] : [key, name];
      parts.push(
        ...(typeof value === 'string'
          ? resolveTemplate(value, path, env, { encoding: 'form', literal: formEncode })
          : [formEncode(String(value))]),
      );
    });
  }
  return joinLiterals(parts);
}

/** A mapping or list as a JSON text template, placeholders encoded as in a JSON body. */
export function compileJson(value: unknown, path: Path, env: EnvResolver): Template {
  return joinLiterals(jsonParts(value, path, env));
}

/** The endpoint's body: text, JSON (a mapping or list), form fields or multipart parts. */
export function compileBody(
  endpoint: EndpointConfig,
  index: number,
  env: EnvResolver,
  files: MultipartFiles,
): BodyPlan | undefined {
  if (typeof endpoint.body === 'string')
    return { kind: 'text', text: resolveTemplate(endpoint.body, ['body'], env) };
  if (endpoint.body !== undefined)
    return { kind: 'text', text: compileJsonTemplate(endpoint.body, ['body'], env) };
  if (endpoint.form !== undefined)
    return { kind: 'text', text: compileForm(endpoint.form, 'form', env) };
  if (endpoint.multipart === undefined) return undefined;
  const parts = Object.entries(endpoint.multipart).flatMap(([name, given]) =>
    (Array.isArray(given) ? given : [given]).map((value, item): MultipartPart => {
      const at = ['multipart', name, ...(Array.isArray(given) ? [item] : [])];
      if (typeof value !== 'object') {
        const text = typeof value === 'string' ? resolveTemplate(value, at, env) : [String(value)];
        return { kind: 'field', name, value: text };
      }
      const set = files.get(multipartFileKey(index, name, item));
      // load-plan reads every file before compiling: one missing here is a bug.
      if (set === undefined) throw new Error(`multipart file ${name} of endpoint ${index} unread`);
      const contentType = value.content_type ?? DEFAULT_FILE_TYPE;
      const bytes = set.get(value.file);
      if (bytes === undefined) {
        const path = resolveTemplate(value.file, [...at, 'file'], env, { singleLine: true });
        return { kind: 'files', name, path, files: set, filename: value.filename, contentType };
      }
      const filename = value.filename ?? lastSegment(value.file);
      return { kind: 'file', name, bytes, filename, contentType };
    }),
  );
  return { kind: 'multipart', parts };
}

/** The last segment of a file path (its name). */
function lastSegment(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

const jsonText = encoderOf('json');

/** A JSON value with placeholders as the template of its JSON text (a body, a Socket.IO event's data). */
export function compileJsonTemplate(value: unknown, path: Path, env: EnvResolver): Template {
  return joinLiterals(jsonParts(value, path, env));
}

/** A JSON value as template parts (see the file comment for its strings). */
function jsonParts(value: unknown, path: Path, env: EnvResolver): TemplatePart[] {
  if (typeof value === 'string') {
    const parts = resolveTemplate(value, path, env, {
      encoding: 'json',
      literal: (text) => jsonText(text, false),
    });
    const only = parts.length === 1 ? parts[0] : undefined;
    if (typeof only === 'object' && 'var' in only && only.encoding === 'json')
      return [{ var: only.var, encoding: 'json-value' }];
    return ['"', ...parts, '"'];
  }
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    return [
      '[',
      ...items.flatMap((item, i) => [
        ...(i > 0 ? [','] : []),
        ...jsonParts(item, [...path, i], env),
      ]),
      ']',
    ];
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return [
      '{',
      ...entries.flatMap(([key, item], i) => [
        ...(i > 0 ? [','] : []),
        '"',
        ...resolveTemplate(key, [...path, key], env, {
          encoding: 'json',
          literal: (text) => jsonText(text, false),
        }),
        '":',
        ...jsonParts(item, [...path, key], env),
      ]),
      '}',
    ];
  }
  // Numbers, booleans and null, as JSON writes them.
  return [JSON.stringify(value) ?? 'null'];
}

/** Joins adjacent literal parts, as templates keep them. */
function joinLiterals(parts: readonly TemplatePart[]): Template {
  const out: TemplatePart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (typeof part === 'string' && typeof last === 'string') out[out.length - 1] = last + part;
    else if (part !== '') out.push(part);
  }
  return out;
}
