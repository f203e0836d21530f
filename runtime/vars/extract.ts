/**
 * Extractors (spec §1.7): after a response, read values into the worker's variables from the JSON
 * body (jsonpath-plus with eval disabled; paths were checked at validation) or from a header.
 * Non-string values are stored as JSON text, marked typed (variable-store.ts). Nothing found leaves the variable unchanged: a body
 * that is not JSON, or a JSON scalar where the path wants an object, finds nothing. A value the
 * store refuses (its bounds: variable-store.ts) fails the request: `variable_limit`.
 *
 * runExtractors() is the one place a response becomes variables, and the target writes that
 * response: whatever it sends must not end the run. A throw while reading it (jsonpath-plus
 * recursing through a body nested thousands of levels deep, JSON.stringify of such a value) makes
 * the request a failure of kind `extract_error` instead of a bug that stops the workers.
 */
import { JSONPath } from 'jsonpath-plus';
import type { ExtractorPlan } from '../../dsl/plan/endpoint-plan.js';
import type { ErrorKind } from '../failure/error-kind.js';
import type { VariableStore } from './variable-store.js';

/** Raw response headers as undici gives them: name, value, name, value… */
export type RawHeaders = readonly Buffer[] | null;

/**
 * Runs the extractors; returns undefined, `variable_limit` when the store refused a value (it
 * stops there), or `extract_error` when reading the response threw (the variables found before
 * the throw stay set).
 */
export function runExtractors(
  extractors: readonly ExtractorPlan[],
  body: string | undefined,
  headers: RawHeaders,
  vars: VariableStore,
): ErrorKind | undefined {
  try {
    return extractAll(extractors, body, headers, vars);
  } catch {
    return 'extract_error';
  }
}

function extractAll(
  extractors: readonly ExtractorPlan[],
  body: string | undefined,
  headers: RawHeaders,
  vars: VariableStore,
): 'variable_limit' | undefined {
  let json: unknown;
  let parsed = false;
  for (const extractor of extractors) {
    let value: string | undefined;
    let typed = false;
    if (extractor.from === 'header') {
      value = headerValue(headers, extractor.header);
    } else {
      if (!parsed) {
        parsed = true;
        json = parseJson(body);
      }
      const found = json === undefined ? undefined : firstJsonValue(json, extractor.path);
      value = jsonText(found);
      typed = typeof found !== 'string';
    }
    if (value !== undefined && !vars.set(extractor.variable, value, typed)) return 'variable_limit';
  }
  return undefined;
}

/** First value at a JSONPath, as text (JSON text unless it is a string); undefined for null. */
export function queryJson(json: unknown, path: string): string | undefined {
  return jsonText(firstJsonValue(json, path));
}

/** A found value as text (JSON text unless it is a string); undefined for nothing or null. */
function jsonText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  // A number beyond the double range parses as Infinity, whose JSON text would be "null".
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  return JSON.stringify(value);
}

/**
 * The first value at a JSONPath, or undefined. In a scalar document (`0`, `false`, `"text"`…) only
 * `$` finds something, the document itself: jsonpath-plus answers nothing at all for a falsy one,
 * not even an empty list, and would index into a string's characters.
 */
export function firstJsonValue(json: unknown, path: string): unknown {
  if (json === null || typeof json !== 'object')
    return JSONPath.toPathArray(path).every((part) => part === '$') ? json : undefined;
  return (JSONPath({ path, json, eval: false, wrap: true }) as unknown[])[0];
}

/** A header's value (case-insensitive name; lowerName must be lower case). */
export function headerValue(headers: RawHeaders, lowerName: string): string | undefined {
  if (headers === null) return undefined;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]!.toString('latin1').toLowerCase() === lowerName)
      return headers[i + 1]!.toString('utf8');
  }
  return undefined;
}

/** The body as JSON, or undefined when it is empty or not JSON. A leading BOM is skipped (RFC 8259 §8.1). */
export function parseJson(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body) as unknown;
  } catch {
    return undefined;
  }
}
