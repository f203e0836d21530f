/**
 * A scripted call's response: its status and protocol at once; its url, headers, body, error and
 * timings built from the host's text when first read (building every response as JSON cost about a sixth
 * of a scripted request). A streamed call's events (or chunks) and time to the first are numbers
 * the host gave (-1: no stream, none came). The text starts with the final url (after redirects)
 * and a "\n"; header names and values alternate after it, each followed by a "\n" (a header cannot
 * hold one), and the body is the rest. Names are made lower case, and repeated names joined by
 * ", ". The fields are getters; toJSON gives them all to JSON.stringify.
 */
import type { Response as ResponseApi } from 'barrage';
import { NativeRegExp, parse, textOf } from './intrinsics.js';
import type { ResponseValues } from './records.js';
import { hostCall } from './vu-host.js';

/** What a response holds once read. */
interface Rest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly error: string | undefined;
  readonly timings: ResponseApi['timings'];
}

/**
 * k6's phases of the final exchange (the host's figures: runtime/script/response-timings.ts);
 * `blocked` and `sending` are not measured by barrage and stay 0 (docs/scenarios.md, API).
 */
const timingsOf = (r: ResponseValues): ResponseApi['timings'] => {
  const phases = {
    blocked: 0,
    connecting: r.connectingMs,
    tls_handshaking: r.tlsMs,
    sending: 0,
    waiting: r.waitingMs,
    receiving: r.receivingMs,
    duration: r.durationMs,
  };
  return Object.freeze(
    r.events < 0 || r.firstEventMs < 0 ? phases : { ...phases, firstEvent: r.firstEventMs },
  );
};

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
  readonly #values: ResponseValues;
  #rest: Rest | undefined = undefined;
  constructor(values: ResponseValues) {
    this.#values = values;
  }
  #read(): Rest {
    if (this.#rest === undefined) {
      const r = this.#values;
      const urlEnd = r.text.indexOf('\n');
      const { headers, bodyAt } = readHeaders(r.text, urlEnd + 1, r.fields);
      this.#rest = Object.freeze({
        url: r.text.slice(0, urlEnd),
        headers: Object.freeze(headers),
        body: r.text.slice(bodyAt),
        error: r.error === '' ? undefined : r.error,
        timings: timingsOf(r),
      });
    }
    return this.#rest;
  }
  get status(): number {
    return this.#values.status;
  }
  get proto(): ResponseApi['proto'] {
    return this.#values.protocol as ResponseApi['proto'];
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
    return this.#values.events < 0 ? undefined : this.#values.events;
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
    return { status: this.status, proto: this.proto, ...this.#read(), events: this.events };
  }
}
Object.freeze(Response.prototype);

/** A response from the host's values, frozen. */
export const response = (values: ResponseValues): Readonly<Response> =>
  Object.freeze(new Response(values));
