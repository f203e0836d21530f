/**
 * A scripted call's response: its status at once; its url, headers, body, error and timings
 * built from the host's text when first read (building every response as JSON cost about a sixth
 * of a scripted request). A streamed call's events (or chunks) and time to the first are numbers
 * the host gave (-1: no stream, none came). The text starts with the final url (after redirects)
 * and a "\n"; header names and values alternate after it, each followed by a "\n" (a header cannot
 * hold one), and the body is the rest. Names are made lower case, and repeated names joined by
 * ", ". The fields are getters; toJSON gives them all to JSON.stringify.
 */
import type { Response as ResponseApi } from 'barrage';
import { NativeRegExp, parse, textOf } from './intrinsics.js';
import { hostCall } from './vu-host.js';

/** What a response holds once read. */
interface Rest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly error: string | undefined;
  readonly timings: { readonly duration: number; readonly firstEvent?: number };
}

/** An element html() found. */
interface HtmlElement {
  readonly text: string;
  readonly attr: (name: unknown) => string | undefined;
}

// An element html() found, from the host's [text, [name, value, …]]: attribute names are lower
// case (the parser made them so), looked up in any case; no prototype, so "__proto__" is a name.
const htmlElement = (text: string, list: readonly string[]): HtmlElement => {
  const attributes = Object.create(null) as Record<string, string>;
  for (let i = 0; i + 1 < list.length; i += 2) attributes[list[i]!] = list[i + 1]!;
  return Object.freeze({
    text,
    attr: (name: unknown) => attributes[textOf(name).toLowerCase()],
  });
};

/** The headers in `text` from `at` (see the file comment), and where the body starts. */
const readHeaders = (text: string, at: number, fields: number) => {
  // No prototype: a header named __proto__ stays a plain key.
  const headers = Object.create(null) as Record<string, string>;
  for (let i = 0; i + 1 < fields; i += 2) {
    const nameEnd = text.indexOf('\n', at);
    const valueEnd = text.indexOf('\n', nameEnd + 1);
    const name = text.slice(at, nameEnd).toLowerCase();
    const value = text.slice(nameEnd + 1, valueEnd);
    const known = headers[name];
    headers[name] = known === undefined ? value : known + ', ' + value;
    at = valueEnd + 1;
  }
  return { headers, bodyAt: at };
};

/** Declared for scenarios as 'barrage''s Response (scenarios/barrage.d.ts), which it implements. */
export class Response implements ResponseApi {
  readonly #status: number;
  readonly #fields: number;
  readonly #text: string;
  readonly #error: string;
  readonly #duration: number;
  readonly #events: number;
  readonly #firstEvent: number;
  #rest: Rest | undefined = undefined;
  constructor(
    status: number,
    fields: number,
    text: string,
    error: string,
    duration: number,
    events: number,
    firstEvent: number,
  ) {
    this.#status = status;
    this.#fields = fields;
    this.#text = text;
    this.#error = error;
    this.#duration = duration;
    this.#events = events;
    this.#firstEvent = firstEvent;
  }
  #read(): Rest {
    if (this.#rest === undefined) {
      const text = this.#text;
      const urlEnd = text.indexOf('\n');
      const { headers, bodyAt } = readHeaders(text, urlEnd + 1, this.#fields);
      this.#rest = Object.freeze({
        url: text.slice(0, urlEnd),
        headers: Object.freeze(headers),
        body: text.slice(bodyAt),
        error: this.#error === '' ? undefined : this.#error,
        timings: Object.freeze(
          this.#events < 0 || this.#firstEvent < 0
            ? { duration: this.#duration }
            : { duration: this.#duration, firstEvent: this.#firstEvent },
        ),
      });
    }
    return this.#rest;
  }
  get status(): number {
    return this.#status;
  }
  get url(): string {
    return this.#read().url;
  }
  get headers(): Readonly<Record<string, string>> {
    return this.#read().headers;
  }
  get body(): string {
    return this.#read().body;
  }
  get error(): string | undefined {
    return this.#read().error;
  }
  get timings(): Rest['timings'] {
    return this.#read().timings;
  }
  get events(): number | undefined {
    return this.#events < 0 ? undefined : this.#events;
  }
  json(path?: unknown): unknown {
    if (path === undefined) return parse(this.body);
    return hostCall('jsonpath', [this.body, textOf(path)]);
  }
  html(selector: unknown): HtmlElement | null {
    const found = hostCall('html', [this.body, textOf(selector)]) as [string, string[]] | null;
    return found === null ? null : htmlElement(found[0], found[1]);
  }
  match(pattern: unknown): string | undefined {
    let regex;
    try {
      regex =
        pattern instanceof NativeRegExp
          ? new NativeRegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''))
          : new NativeRegExp(textOf(pattern));
    } catch (error) {
      throw new Error('match(): ' + textOf((error as Error).message));
    }
    const found = regex.exec(this.body);
    if (found === null) return undefined;
    return found.length > 1 ? found[1] : found[0];
  }
  toJSON() {
    return { status: this.#status, ...this.#read(), events: this.events };
  }
}
Object.freeze(Response.prototype);

/** A response from the host's values, frozen. */
export const response = (
  status: number,
  fields: number,
  text: string,
  error: string,
  duration: number,
  events: number,
  firstEvent: number,
): Readonly<Response> =>
  Object.freeze(new Response(status, fields, text, error, duration, events, firstEvent));
