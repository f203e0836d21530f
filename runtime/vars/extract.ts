/**
 * Extractors (spec §1.7): after a response, read values into the worker's variables from the JSON
 * body (jsonpath-plus with eval disabled, reading the spelling validation gave each RFC 9535 path:
 * model/json-path/json-path-query.ts), from a header, from
 * the body as text (a regular expression's first match: its first group, else the whole match) or
 * from the body as HTML (the first element a CSS selector finds: an attribute, or its trimmed
 * text). Non-string JSON values are stored as JSON text, marked typed (variable-store.ts). Nothing found leaves the variable
 * unchanged: a body that is not JSON, a JSON scalar where the path wants an object, no match, no
 * element or no such attribute finds nothing. The body is parsed once per response however many
 * extractors read it (as JSON, as HTML). A value the store refuses (its bounds:
 * variable-store.ts) fails the request: `variable_limit`.
 *
 * runExtractors() is the one place a response becomes variables, and the target writes that
 * response: whatever it sends must not end the run. A throw while reading it (jsonpath-plus
 * recursing through a body nested thousands of levels deep, JSON.stringify of such a value, HTML
 * past the bounds of html-query.ts) makes the request a failure of kind `extract_error` instead
 * of a bug that stops the workers.
 */
import type * as JsonPathPlus from 'jsonpath-plus';
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type * as HtmlQuery from './html-query.js';
import type { VariableStore } from './variable-store.js';
import type { Random } from '../../model/random.js';

// html-query.ts (htmlparser2, css-select, and the entity tables htmlparser2 decodes at load:
// about 8 ms of a start) is imported only for a plan that reads HTML: importHtmlQuery(). So is
// jsonpath-plus for a plan that reads JSON by a path (its parser registers its plugins at load,
// about 5 ms): importJsonPath().
let htmlQuery: typeof HtmlQuery | undefined;
let jsonPathPlus: typeof JsonPathPlus | undefined;

/** Imports html-query.ts; a segment whose plan readsCss() does so before dispatch. */
export async function importHtmlQuery(): Promise<void> {
  htmlQuery ??= await import('./html-query.js');
}

/** Imports jsonpath-plus; a segment whose plan readsJsonPath() does so before dispatch. */
export async function importJsonPath(): Promise<void> {
  jsonPathPlus ??= await import('jsonpath-plus');
}

/** True when a plan has a css extractor or check anywhere: `from: 'css'` (endpoints, WebSocket steps, checks). */
export function readsCss(plan: unknown): boolean {
  return planHolds(plan, (node) => (node as { from?: unknown }).from === 'css');
}

/**
 * True when a plan may read JSON by a path: a JSONPath anywhere (an extractor, a check or a
 * WebSocket match, each spelled for jsonpath-plus as `evaluatorPath`), or a TypeScript scenario,
 * whose `res.json(path)` picks its paths as it runs.
 */
export function readsJsonPath(plan: object): boolean {
  return (
    (plan as { script?: unknown }).script !== undefined ||
    planHolds(plan, (node) => 'evaluatorPath' in node)
  );
}

/** True when some object anywhere in a plan passes `test`. Walks with a stack: a plan is plain data. */
function planHolds(plan: unknown, test: (node: object) => boolean): boolean {
  const pending: unknown[] = [plan];
  while (pending.length > 0) {
    const node = pending.pop();
    // Typed arrays (feeder records, shared data) hold no extractors: walking them would make an
    // array of every byte.
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) continue;
    if (test(node)) return true;
    for (const item of Object.values(node)) pending.push(item);
  }
  return false;
}

/** The imported module; a css extractor or check without it is a bug of importHtmlQuery. */
function html(): typeof HtmlQuery {
  if (htmlQuery === undefined) throw new Error('bug: CSS read before importHtmlQuery()');
  return htmlQuery;
}

/** jsonpath-plus's evaluator; a JSONPath read without it is a bug of importJsonPath. */
function jsonPathEvaluator(): typeof JsonPathPlus.JSONPath {
  if (jsonPathPlus === undefined) throw new Error('bug: JSONPath read before importJsonPath()');
  return jsonPathPlus.JSONPath;
}

/** Raw response headers as undici gives them: name, value, name, value… */
export type RawHeaders = readonly Buffer[] | null;

/**
 * Runs the extractors; returns undefined, `variable_limit` when the store refused a value (it
 * stops there), or `extract_error` when reading the response threw (the variables found before
 * the throw stay set).
 */
export function runExtractors(
  extractors: readonly ExtractorPlan[],
  body: string | ParsedBody | undefined,
  headers: RawHeaders,
  vars: VariableStore,
  random: Random,
): ErrorKind | undefined {
  try {
    const parsed = body instanceof ParsedBody ? body : new ParsedBody(body);
    return extractAll(extractors, parsed, headers, vars, random);
  } catch {
    return 'extract_error';
  }
}

/** True when an extractor reads the response body (json, regex, css), not only its headers. */
export function readsBody(extractors: readonly ExtractorPlan[]): boolean {
  return extractors.some((e) => e.from !== 'header');
}

/**
 * The body as each kind of extractor (and check, runtime/checks/) reads it, parsed on first use,
 * so that a response is parsed once however many of them read it.
 */
export class ParsedBody {
  #json: unknown;
  #jsonParsed = false;
  #html: HtmlQuery.HtmlDocument | undefined;

  constructor(readonly text: string | undefined) {}

  get json(): unknown {
    if (!this.#jsonParsed) {
      this.#jsonParsed = true;
      this.#json = parseJson(this.text);
    }
    return this.#json;
  }

  get html(): HtmlQuery.HtmlDocument {
    this.#html ??= html().parseHtml(this.text ?? '');
    return this.#html;
  }
}

function extractAll(
  extractors: readonly ExtractorPlan[],
  parsed: ParsedBody,
  headers: RawHeaders,
  vars: VariableStore,
  random: Random,
): 'variable_limit' | undefined {
  for (const extractor of extractors) {
    // A JSON value keeps its type (typed: a number, boolean, object or array stored as JSON text).
    if (extractor.from === 'json') {
      const found =
        parsed.json === undefined ? undefined : pickJsonValue(parsed.json, extractor, random);
      const value = jsonText(found);
      if (value !== undefined && !vars.set(extractor.variable, value, typeof found !== 'string'))
        return 'variable_limit';
      continue;
    }
    const value = extractOne(extractor, parsed, headers);
    if (value !== undefined && !vars.set(extractor.variable, value)) return 'variable_limit';
  }
  return undefined;
}

/**
 * The value a JSON extractor stores: the first found, one of those found drawn from the virtual
 * user's seeded random (`pick: random`; nothing found: undefined), or all of them as a list
 * (`pick: all`; nothing found: an empty list, so a loop over it makes no pass).
 */
function pickJsonValue(
  json: unknown,
  extractor: Extract<ExtractorPlan, { from: 'json' }>,
  random: Random,
): unknown {
  if (extractor.pick === undefined) return firstJsonValue(json, extractor.evaluatorPath);
  const all = allJsonValues(json, extractor.evaluatorPath);
  if (extractor.pick === 'all') return all;
  return all.length === 0 ? undefined : all[random.int(all.length)];
}

/** Every value at a JSONPath, in document order (a scalar document: itself for `$`). */
function allJsonValues(json: unknown, path: string): unknown[] {
  if (json === null || typeof json !== 'object') {
    const found = firstJsonValue(json, path);
    return found === undefined ? [] : [found];
  }
  return jsonPathEvaluator()({ path, json, eval: false, wrap: true }) as unknown[];
}

/**
 * What one extractor finds, as it is: a JSON value keeps its type (a number stays a number), the
 * others give text; undefined when it finds nothing. Reading a hostile body may throw (see above).
 */
export function extractedValue(
  extractor: ExtractorPlan,
  parsed: ParsedBody,
  headers: RawHeaders,
): unknown {
  if (extractor.from !== 'json') return extractOne(extractor, parsed, headers);
  return parsed.json === undefined
    ? undefined
    : firstJsonValue(parsed.json, extractor.evaluatorPath);
}

/** The text value of a header, regex or CSS extractor. */
function extractOne(
  extractor: Exclude<ExtractorPlan, { from: 'json' }>,
  body: ParsedBody,
  headers: RawHeaders,
): string | undefined {
  switch (extractor.from) {
    case 'header':
      return headerValue(headers, extractor.header);
    case 'regex':
      return body.text === undefined ? undefined : firstMatch(body.text, extractor.pattern);
    case 'css':
      return cssValue(body, extractor.selector, extractor.attr);
  }
}

/**
 * The first element a selector finds in the body as HTML: its trimmed text, or its attribute
 * `attr` (lower case); undefined when no body was kept, nothing matches or there is no such
 * attribute.
 */
export function cssValue(
  body: ParsedBody,
  selector: string,
  attr: string | undefined,
): string | undefined {
  if (body.text === undefined) return undefined;
  const query = html();
  const element = query.selectFirst(body.html, query.compileSelector(selector));
  if (element === null) return undefined;
  return attr === undefined ? query.elementText(element) : query.elementAttribute(element, attr);
}

const patterns = new Map<string, RegExp>();

/** A pattern (no flags) compiled once: patterns come from the configuration, checked at validation. */
export function compiledPattern(pattern: string): RegExp {
  let regex = patterns.get(pattern);
  if (regex === undefined) patterns.set(pattern, (regex = new RegExp(pattern)));
  return regex;
}

/**
 * The first match of a pattern (no flags) in text: its first capture group, or the whole match
 * when the pattern has no group; undefined when nothing matches or the group took no part.
 */
export function firstMatch(text: string, pattern: string): string | undefined {
  const match = compiledPattern(pattern).exec(text);
  if (match === null) return undefined;
  return match.length > 1 ? match[1] : match[0];
}

/** First value at a JSONPath, as text (JSON text unless it is a string); undefined for null. */
export function queryJson(json: unknown, path: string): string | undefined {
  return jsonText(firstJsonValue(json, path));
}

/** A found value as text (JSON text unless it is a string); undefined for nothing or null. */
export function jsonText(value: unknown): string | undefined {
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
  const JSONPath = jsonPathEvaluator();
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
