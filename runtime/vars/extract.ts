/**
 * Extractors (spec §1.7): after a response, read values into the worker's variables from the JSON
 * body (jsonpath-plus with eval disabled; paths were checked at validation) or from a header.
 * Non-string values are stored as JSON text. Nothing found leaves the variable unchanged. A value
 * the store refuses (its bounds: variable-store.ts) fails the request: `variable_limit`.
 */
import { JSONPath } from 'jsonpath-plus';
import type { ExtractorPlan } from '../../dsl/plan/endpoint-plan.js';
import type { VariableStore } from './variable-store.js';

/** Raw response headers as undici gives them: name, value, name, value… */
export type RawHeaders = readonly Buffer[] | null;

/** What runExtractors returns when the variable store refused a value (it stops there). */
export const EXTRACT_REFUSED = -1;

/** Runs the extractors; returns how many found a value, or EXTRACT_REFUSED. */
export function runExtractors(
  extractors: readonly ExtractorPlan[],
  body: string | undefined,
  headers: RawHeaders,
  vars: VariableStore,
): number {
  let found = 0;
  let json: unknown;
  let parsed = false;
  for (const extractor of extractors) {
    let value: string | undefined;
    if (extractor.from === 'header') {
      value = headerValue(headers, extractor.header);
    } else {
      if (!parsed) {
        parsed = true;
        json = parseJson(body);
      }
      if (json !== undefined) value = queryJson(json, extractor.path);
    }
    if (value !== undefined) {
      if (!vars.set(extractor.variable, value)) return EXTRACT_REFUSED;
      found++;
    }
  }
  return found;
}

/** First value at a JSONPath, as text. */
export function queryJson(json: unknown, path: string): string | undefined {
  const matches = JSONPath<unknown[]>({ path, json: json as object, eval: false, wrap: true });
  const value = matches[0];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
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

function parseJson(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
