/**
 * An RFC 9535 query rewritten into the text jsonpath-plus 11 evaluates to the same first value,
 * or refused with what to write instead. The evaluator is jsonpath-plus (eval off); its tokenizer
 * (JSONPath.toPathArray: regular expressions over the text) and its selectors differ from the RFC
 * in ways measured with the compliance suite (test/dsl/json-path-cts.test.ts):
 *
 * - Whitespace, `.name` and `..` are dropped or spelled as jsonpath-plus reads them.
 * - An index reads object keys and string characters ("0") and ignores negatives: it becomes the
 *   one-element slice `[i:i+1]` (`[-1:]` for -1), which reads arrays only, from the end as well.
 * - A name is written `['`name']`: after jsonpath-plus's backquote escape a key is literal even
 *   when it spells `*`, `..`, `$`, `@id` or a slice. A name with `,`, `\`, `'` or `"` is written
 *   quoted with backslash escapes (`['a\'b']`): jsonpath-plus keeps such a bracket whole and
 *   reads its names literally. So is a list of names (`['a','b']`).
 * - A list mixing names with `*`, indices or slices is split on "," by jsonpath-plus, each part
 *   read alone: a name there is `"name"`, and a name first gets the empty slice `0:0` before it
 *   (jsonpath-plus would read a list starting with a quote as names only).
 * - A name the tokenizer would cut (at `;`, `^`, `[`, `]`, "#" before a digit; in a mixed list
 *   also `~`, `'`, `,`), change ("%" or "@" next to "." or "~", see survivesMarkers) or read as a
 *   function (`@type(…)`, `'(…)'`) is refused: quoted whole, only the function risk remains.
 *
 * One difference remains, documented (docs/configuration.md): a name applied to an array or a
 * string reads its `length` and, for digit names, an element or character; RFC 9535 selects
 * nothing there.
 */
import {
  parseJsonPathSyntax,
  type JsonPathFailure,
  type JsonPathSelector,
} from './json-path-syntax.js';

/** The jsonpath-plus text of a query, or why it is refused. */
export type CompiledJsonPath =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly failure: JsonPathFailure };

/** Characters jsonpath-plus's tokenizer cuts a name at when it is not quoted whole. */
const CUT = /[;^[\]]|#\d/;
/** Text jsonpath-plus reads as a function or script before anything else: `@type(…)`, `'(…)'`. */
const FUNCTION = /@[\w$-]+\([^)]*\)|[['](\??\(.*?\))[\]']/;
/** Names that must be quoted with escapes to be read whole. */
const NEEDS_QUOTES = /[,\\'"]/;
/** Characters a name cannot hold inside a list that also has `*`, indices or slices. */
const MIXED_CUT = /[~',]/;

/** Parses an RFC 9535 query and spells it for jsonpath-plus, or says why it cannot. */
export function compileJsonPath(query: string): CompiledJsonPath {
  const parsed = parseJsonPathSyntax(query);
  if (!parsed.ok) return parsed;
  let path = '$';
  for (const segment of parsed.segments) {
    const text = segmentText(segment.selectors);
    if (typeof text !== 'string')
      return { ok: false, failure: { ...text, position: segment.position } };
    path += (segment.descendant ? '..' : '') + text;
  }
  // jsonpath-plus looks for functions and scripts across the whole text, segments included.
  const script = FUNCTION.exec(path);
  if (script !== null)
    return {
      ok: false,
      failure: {
        part: 'name',
        position: 0,
        problem: `the evaluator (jsonpath-plus) would read ${JSON.stringify(script[0])} in its spelling of these names as a function or script; not supported (a TypeScript scenario can read them from res.json())`,
      },
    };
  return { ok: true, path };
}

type Refusal = Omit<JsonPathFailure, 'position'>;

/** One segment's brackets as jsonpath-plus reads them. */
function segmentText(selectors: readonly JsonPathSelector[]): string | Refusal {
  const names = selectors.flatMap((s) => (s.kind === 'name' ? [s.name] : []));
  if (names.length === selectors.length) return namesText(names);
  const parts: string[] = [];
  for (const selector of selectors) {
    if (selector.kind !== 'name') {
      parts.push(selectorText(selector));
      continue;
    }
    const refusal = refuseName(
      selector.name,
      MIXED_CUT,
      false,
      ' in a list with *, indices or slices',
    );
    if (refusal !== undefined) return refusal;
    parts.push(`"${escapeQuotes(selector.name)}"`);
  }
  if (selectors[0]?.kind === 'name') parts.unshift('0:0');
  return `[${parts.join(',')}]`;
}

/** A list of names: backquoted when alone and plain, else quoted with escapes (kept whole). */
function namesText(names: readonly string[]): string | Refusal {
  const [name] = names;
  if (names.length === 1 && name !== undefined && !NEEDS_QUOTES.test(name))
    return refuseName(name, CUT, true, '') ?? `['\`${name}']`;
  return `[${names.map((n) => `'${escapeQuotes(n)}'`).join(',')}]`;
}

/** Backslash before \\, ' and ": the only escapes jsonpath-plus undoes in a quoted name. */
function escapeQuotes(name: string): string {
  return name.replace(/[\\'"]/g, '\\$&');
}

/** Why a name cannot be written for jsonpath-plus, or undefined when it can. */
function refuseName(name: string, cut: RegExp, alone: boolean, where: string): Refusal | undefined {
  const bad = cut.exec(name) ?? CUT.exec(name);
  if (bad === null && survivesMarkers(name, alone)) return undefined;
  const why = bad === null ? '"%" or "@" next to "." or "~"' : JSON.stringify(bad[0]);
  return {
    part: 'name',
    problem: `the evaluator (jsonpath-plus) cannot read the name ${JSON.stringify(name)}${where}: it holds ${why}; not supported (a TypeScript scenario can read it from res.json())`,
  };
}

/**
 * jsonpath-plus hides "." and "~" of a bracketed name (alone in its brackets) as "%@%" and
 * "%%@@%%" while it splits the path, then turns every "%@%" and "%%@@%%" of the text back: a name
 * holding "%" or "@" next to them can come out changed. True when the name comes out whole.
 */
function survivesMarkers(name: string, alone: boolean): boolean {
  const hidden = alone ? name.replaceAll('.', '%@%').replaceAll('~', '%%@@%%') : name;
  return hidden.replaceAll('%@%', '.').replaceAll('%%@@%%', '~') === name;
}

/** `*`, an index (as a one-element slice) or a slice. */
function selectorText(selector: Exclude<JsonPathSelector, { kind: 'name' }>): string {
  switch (selector.kind) {
    case 'wildcard':
      return '*';
    case 'index':
      return selector.index === -1 ? '-1:' : `${selector.index}:${selector.index + 1}`;
    case 'slice': {
      const { start, end, step } = selector;
      return `${start ?? ''}:${end ?? ''}${step === undefined ? '' : `:${step}`}`;
    }
  }
}
