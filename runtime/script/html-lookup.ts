/**
 * The host side of a scenario's `r.html(selector)`: the response's kept body, parsed as HTML on
 * the host (runtime/vars/html-query.ts, with its bounds on hostile documents), and the first
 * element the selector finds, as the isolate rebuilds it: [trimmed text, [name, value, …]].
 *
 * A scenario reads one response several times in a row (a token, then a title), so the last
 * document parsed is kept, one per segment: the same body (compared as text) is not parsed
 * again. One, not one per virtual user: a 1 MiB page parses into tens of MB.
 */
import {
  compileSelector,
  elementText,
  parseHtml,
  selectFirst,
  type CompiledSelector,
  type HtmlDocument,
} from '../vars/html-query.js';

/** What crosses into the isolate for a found element. */
export type FoundElement = [text: string, attributes: string[]];

/** Finds elements in response bodies for the scenarios of one segment. */
export class HtmlLookup {
  #body: string | undefined;
  #document: HtmlDocument | undefined;

  /** The first element `selector` finds in `body`, or null; throws a message for the script. */
  find(body: string, selector: string): FoundElement | null {
    const compiled = compileForScript(selector);
    let element;
    try {
      element = selectFirst(this.#parsed(body), compiled);
    } catch (error) {
      throw new Error(`html(): ${error instanceof Error ? error.message : String(error)}`);
    }
    if (element === null) return null;
    return [elementText(element), Object.entries(element.attribs).flat()];
  }

  #parsed(body: string): HtmlDocument {
    if (this.#document === undefined || this.#body !== body) {
      this.#document = undefined;
      this.#document = parseHtml(body);
      this.#body = body;
    }
    return this.#document;
  }
}

function compileForScript(selector: string): CompiledSelector {
  try {
    return compileSelector(selector);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`html(): invalid CSS selector ${JSON.stringify(selector)}: ${reason}`);
  }
}
