/**
 * CSS selectors over a response's HTML, for `css` extractors and a scenario's `r.html()`:
 * htmlparser2 parses (leniently, as browsers do: unclosed tags, stray text), css-select finds the
 * first element in document order, domutils reads its text.
 *
 * The HTML comes from the target, which is untrusted, and both libraries have costs that grow
 * with the document's shape, not just its size. Measured on a 1 MiB body: htmlparser2 keeps its
 * open-tag stack with unshift, so 200,000 nested tags took 3.4 s to parse; css-select's `b ~ i`
 * over 150,000 sibling elements with no `b` compares every pair (152 s), and so do `:has()` and
 * `:contains()` over deep subtrees. So two bounds, checked as the work is done, make a hostile
 * document cost little and throw (the caller turns the throw into `extract_error`):
 * - depth: at most MAX_HTML_DEPTH open elements (Blink's parser stops nesting at 512);
 * - steps: at most MAX_SELECT_STEPS calls into the DOM for one selection; every tree walk of
 *   css-select goes through its adapter (isTag is asked of each element it looks at, each
 *   sibling of a `~` scan included), and reading an element's text costs its node count.
 */
import { compile, selectOne } from 'css-select';
import * as DomUtils from 'domutils';
import { DomHandler, ElementType, Parser } from 'htmlparser2';

/** A parsed HTML document. */
export type HtmlDocument = DomHandler['root'];
/** One element of a document. */
export type HtmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];
type HtmlNode = Parameters<typeof DomUtils.getChildren>[0];
/** A selector compiled once (css-select's compiled query over the bounded adapter). */
export type CompiledSelector = ReturnType<typeof compile<HtmlNode, HtmlElement>>;

/** Deepest nesting of elements a document may have. */
export const MAX_HTML_DEPTH = 512;
/** Most DOM operations one selection may make. */
export const MAX_SELECT_STEPS = 5_000_000;
/** Compiled selectors kept (the cache starts over when full: a scenario may build selectors). */
const MAX_CACHED_SELECTORS = 1000;

/** Thrown when a document or a selection passes its bounds. */
export class HtmlBoundError extends Error {}

/** DomHandler with the depth bound: a tag opened past it ends the parse. */
class BoundedHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (this.tagStack.length > MAX_HTML_DEPTH)
      throw new HtmlBoundError(`HTML nested deeper than ${MAX_HTML_DEPTH} elements`);
    super.onopentag(name, attribs);
  }
}

/** Parses HTML as htmlparser2's parseDocument does (entities decoded, names lower case). */
export function parseHtml(html: string): HtmlDocument {
  const handler = new BoundedHandler();
  new Parser(handler).end(html);
  return handler.root;
}

let stepsLeft = MAX_SELECT_STEPS;
function spend(steps: number): void {
  stepsLeft -= steps;
  if (stepsLeft < 0)
    throw new HtmlBoundError(`the selection took more than ${MAX_SELECT_STEPS} steps`);
}

/** Each element of the subtree costs a step: reading its text walks all of them. */
function spendSubtree(node: HtmlNode): void {
  const stack: HtmlNode[] = [node];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    spend(1);
    if ('children' in next) for (const child of next.children) stack.push(child);
  }
}

/** css-select's default adapter (domutils), every call counted. */
const ADAPTER = {
  ...DomUtils,
  isTag: (node: HtmlNode): node is HtmlElement => {
    spend(1);
    return ElementType.isTag(node);
  },
  getParent: (node: HtmlElement) => (spend(1), DomUtils.getParent(node)),
  getChildren: (node: HtmlNode) => (spend(1), DomUtils.getChildren(node)),
  getSiblings: (node: HtmlNode) => (spend(1), DomUtils.getSiblings(node)),
  prevElementSibling: (node: HtmlNode) => (spend(1), DomUtils.prevElementSibling(node)),
  getAttributeValue: (node: HtmlElement, name: string) => (
    spend(1),
    DomUtils.getAttributeValue(node, name)
  ),
  hasAttrib: (node: HtmlElement, name: string) => (spend(1), DomUtils.hasAttrib(node, name)),
  getText: (node: HtmlNode) => (spendSubtree(node), DomUtils.getText(node)),
};

const selectors = new Map<string, CompiledSelector>();

/** Compiles a selector (css-what's error when it is invalid), once per distinct text. */
export function compileSelector(selector: string): CompiledSelector {
  const known = selectors.get(selector);
  if (known !== undefined) return known;
  const compiled = compile<HtmlNode, HtmlElement>(selector, { adapter: ADAPTER });
  if (selectors.size >= MAX_CACHED_SELECTORS) selectors.clear();
  selectors.set(selector, compiled);
  return compiled;
}

/** The first element (document order) the selector matches, or null. */
export function selectFirst(
  document: HtmlDocument,
  selector: CompiledSelector,
): HtmlElement | null {
  stepsLeft = MAX_SELECT_STEPS;
  return selectOne(selector, document, { adapter: ADAPTER });
}

/** An element's text content (the text of all its descendants), white space trimmed. */
export function elementText(element: HtmlElement): string {
  return DomUtils.textContent(element).trim();
}

/** An attribute's value (its name in any case: HTML attribute names are lower-cased when parsed). */
export function elementAttribute(element: HtmlElement, name: string): string | undefined {
  return DomUtils.getAttributeValue(element, name.toLowerCase());
}
