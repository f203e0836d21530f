/**
 * CSS selectors of `css` extractors, compiled before any traffic by css-select itself (css-what
 * parses them), the compiler the run uses: what it refuses is reported with its reason, e.g.
 * invalid CSS selector "input[": Expected name, found end of input. A selector of only white
 * space is refused too (css-select would accept it and match nothing).
 *
 * css-select, and the HTML stack it brings, is imported only for a configuration that holds a
 * selector (loadCssSelectors, before the schema checks them): most configurations have none, and
 * loading it costs every start a few milliseconds.
 */
import type { compile } from 'css-select';
import type { GrammarError } from './grammar-error.js';
import { quoteInput } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

let compileSelector: typeof compile | undefined;

/** Imports css-select when `raw` (a merged configuration) holds a `css` key anywhere. */
export async function loadCssSelectors(raw: unknown): Promise<void> {
  if (compileSelector === undefined && holdsCssKey(raw))
    compileSelector = (await import('css-select')).compile;
}

/** Walks with a stack, not recursion: a document nested thousands deep must not overflow it. */
function holdsCssKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node) && Object.hasOwn(node, 'css')) return true;
    for (const item of Object.values(node)) pending.push(item);
  }
  return false;
}

/** Checks that a selector compiles; returns it unchanged when it does. */
export function parseCssSelector(selector: string): Result<string, GrammarError> {
  if (compileSelector === undefined)
    throw new Error('bug: a CSS selector checked before loadCssSelectors() saw its configuration');
  const fail = (reason: string): Result<string, GrammarError> =>
    err({
      message: `invalid CSS selector ${quoteInput(selector, 0)}: ${reason}`,
      part: 'selector',
      position: 0,
    });
  if (selector.trim() === '') return fail('it is empty');
  try {
    compileSelector(selector);
    return ok(selector);
  } catch (error) {
    // css-what ends "Expected name, found " with the rest of the selector, empty at its end.
    const reason = error instanceof Error ? error.message : String(error);
    return fail(reason.endsWith('found ') ? `${reason}the end of the selector` : reason);
  }
}
