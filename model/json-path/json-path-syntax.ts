/**
 * RFC 9535 JSONPath syntax (§2.1–2.5), read into segments. Filter selectors (`?…`, §2.3.5) are
 * recognized and refused, not parsed: the evaluator runs with `eval: false`. It lives in plan/
 * because both sides read it: validation (dsl/grammar/json-path.ts) and a scenario's `r.json(path)`,
 * whose path arrives at run time (runtime may import only plan/).
 *
 *   query        = "$" *(S segment)                                  nothing before "$" or after
 *   segment      = "[" S selector *(S "," S selector) S "]"
 *                / "." ("*" / shorthand)  /  ".." ("[" … "]" / "*" / shorthand)
 *   selector     = string / "*" / slice / int / "?" …               ("?": refused)
 *   slice        = [int S] ":" S [int S] [":" [S int]]
 *   int          = "0" / ["-"] ("1"–"9") *DIGIT                     |int| ≤ 2^53 − 1
 *   string       = "'" *(char / '"' / "\'" / escape) "'"  /  '"' *(char / "'" / '\"' / escape) '"'
 *   escape       = "\" ("b" / "f" / "n" / "r" / "t" / "/" / "\" / "u" 4HEX)
 *                  (a \u surrogate only as a high-low pair: "\uD834\uDD1E")
 *   char         = U+0020–U+10FFFF except "'", '"', "\" and lone surrogates
 *   shorthand    = first *(first / DIGIT);  first = ALPHA / "_" / U+0080–U+10FFFF
 *   S            = *(" " / TAB / LF / CR)
 */

/** One selector of a segment (RFC 9535 §2.3), filters excepted. */
export type JsonPathSelector =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'index'; readonly index: number }
  | {
      readonly kind: 'slice';
      readonly start: number | undefined;
      readonly end: number | undefined;
      readonly step: number | undefined;
    };

/** A child (`[…]`, `.name`) or descendant (`..`) segment with its selectors in order. */
export interface JsonPathSegment {
  readonly descendant: boolean;
  readonly selectors: readonly JsonPathSelector[];
  /** Where the segment starts in the query (0-based), for messages. */
  readonly position: number;
}

/** Why a query is refused: the problem in plain words, where, and the grammar part. */
export interface JsonPathFailure {
  readonly problem: string;
  readonly position: number;
  readonly part: string;
}

/** A parsed query, or why not. */
export type JsonPathParse =
  | { readonly ok: true; readonly segments: readonly JsonPathSegment[] }
  | { readonly ok: false; readonly failure: JsonPathFailure };

/** Thrown inside the parser only; parseJsonPathSyntax turns it into a failure. */
class SyntaxFailure extends Error {
  constructor(readonly failure: JsonPathFailure) {
    super(failure.problem);
  }
}

const MAX_INT = Number.MAX_SAFE_INTEGER;
const BLANK = new Set([' ', '\t', '\n', '\r']);
const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '/': '/',
  '\\': '\\',
};

/** Parses a JSONPath query as RFC 9535 writes it. */
export function parseJsonPathSyntax(query: string): JsonPathParse {
  try {
    return { ok: true, segments: new Reader(query).query() };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, failure: error.failure };
    throw error;
  }
}

/** A cursor over the query: each method reads one production of the BNF above. */
class Reader {
  #at = 0;

  constructor(private readonly text: string) {}

  query(): JsonPathSegment[] {
    if (this.text[0] !== '$') this.fail('a JSONPath starts with "$" (nothing before it)', 'root');
    this.#at = 1;
    const segments: JsonPathSegment[] = [];
    for (;;) {
      const blankAt = this.#at;
      this.blanks();
      if (this.#at === this.text.length) {
        if (blankAt < this.#at)
          this.fail('nothing may follow the path, not even a space', 'end', blankAt);
        return segments;
      }
      segments.push(this.segment());
    }
  }

  segment(): JsonPathSegment {
    const position = this.#at;
    if (this.peek() === '[') return { descendant: false, selectors: this.bracketed(), position };
    if (this.peek() !== '.')
      this.fail(`expected ".", ".." or "[" before a segment, got ${this.shown()}`, 'segment');
    this.#at++;
    const descendant = this.peek() === '.';
    if (descendant) {
      this.#at++;
      if (this.peek() === '[') return { descendant, selectors: this.bracketed(), position };
    }
    if (this.peek() === '*') {
      this.#at++;
      return { descendant, selectors: [{ kind: 'wildcard' }], position };
    }
    return { descendant, selectors: [{ kind: 'name', name: this.shorthand() }], position };
  }

  /** `.name`: a letter, "_" or non-ASCII, then those or digits; up to ".", "[", a blank or the end. */
  shorthand(): string {
    const start = this.#at;
    while (this.#at < this.text.length) {
      const point = this.text.codePointAt(this.#at)!;
      if (!isNameFirst(point) && !(this.#at > start && point >= 0x30 && point <= 0x39)) break;
      this.#at += point > 0xffff ? 2 : 1;
    }
    const next = this.peek();
    if (this.#at > start && (next === undefined || next === '.' || next === '[' || BLANK.has(next)))
      return this.text.slice(start, this.#at);
    const key = /^[^.[ \t\n\r]*/.exec(this.text.slice(start))![0].replace(/^`/, '');
    const shown = this.#at === this.text.length ? 'the end' : this.shown();
    const instead =
      key === '' ? '' : `; for the key ${JSON.stringify(key)} write ${bracketed(key)}`;
    return this.fail(
      `after ".${this.text[start - 2] === '.' ? '.' : ''}" comes "*" or a name of letters, digits and "_" that starts with a letter or "_"; got ${shown}${instead}`,
      'name',
    );
  }

  bracketed(): JsonPathSelector[] {
    this.#at++;
    const selectors: JsonPathSelector[] = [];
    for (;;) {
      this.blanks();
      selectors.push(this.selector());
      this.blanks();
      const c = this.peek();
      this.#at++;
      if (c === ']') return selectors;
      if (c !== ',') {
        this.#at--;
        this.fail(`expected "," or "]" after a selector, got ${this.shown()}`, 'selector');
      }
    }
  }

  selector(): JsonPathSelector {
    const c = this.peek();
    if (c === "'" || c === '"') return { kind: 'name', name: this.string(c) };
    if (c === '*') {
      this.#at++;
      return { kind: 'wildcard' };
    }
    if (c === '?')
      this.fail(
        'filter expressions ([?…]) are not supported: jsonpath-plus runs them only with eval, which stays off; select by name, index or slice, or test values in a TypeScript scenario',
        'filter',
      );
    if (c === '@' || c === '$' || c === '(')
      this.fail(
        `${this.shown()} belongs in a filter expression ([?…]), and filters are not supported; select by name, index or slice`,
        'selector',
      );
    if (c === ':' || c === '-' || c === '+' || (c !== undefined && c >= '0' && c <= '9'))
      return this.indexOrSlice();
    this.fail(
      `expected a selector: 'name', "name", *, an index such as 0 or -1, or a slice such as 1:3; got ${this.shown()}`,
      'selector',
    );
  }

  indexOrSlice(): JsonPathSelector {
    const start = this.peek() === ':' ? undefined : this.int();
    this.blanks();
    if (this.peek() !== ':') {
      if (start === undefined) this.fail('expected an index', 'index');
      return { kind: 'index', index: start };
    }
    this.#at++;
    this.blanks();
    const end = this.intAhead() ? this.int() : undefined;
    this.blanks();
    let step: number | undefined;
    if (this.peek() === ':') {
      this.#at++;
      this.blanks();
      step = this.intAhead() ? this.int() : undefined;
    }
    return { kind: 'slice', start, end, step };
  }

  intAhead(): boolean {
    const c = this.peek();
    return c === '-' || (c !== undefined && c >= '0' && c <= '9');
  }

  /** int = "0" / ["-"] ("1"–"9") *DIGIT, within ±(2^53 − 1). */
  int(): number {
    const start = this.#at;
    const match = /^-?\d+/.exec(this.text.slice(start));
    const digits = match?.[0] ?? '';
    if (!/^(0|-?[1-9]\d*)$/.test(digits)) {
      const token = /^[-+]?\s*[\d.]*/.exec(this.text.slice(start))![0];
      this.fail(
        `an integer is 0 or an optional "-" then digits without a leading 0 (no "+", "-0", spaces or decimals), got ${JSON.stringify(token === '' ? this.peek() : token)}`,
        'integer',
      );
    }
    const value = Number(digits);
    if (Math.abs(value) > MAX_INT)
      this.fail(`an integer must lie within ±${MAX_INT}`, 'integer', start);
    this.#at += digits.length;
    return value;
  }

  /** A quoted name with its escapes resolved. */
  string(quote: string): string {
    const start = this.#at;
    this.#at++;
    let name = '';
    for (;;) {
      if (this.#at >= this.text.length)
        this.fail(`unterminated name (no closing ${quote})`, 'name', start);
      const c = this.text[this.#at]!;
      if (c === quote) {
        this.#at++;
        return name;
      }
      if (c === '\\') {
        name += this.escape(quote);
        continue;
      }
      const point = this.text.codePointAt(this.#at)!;
      if (point < 0x20)
        this.fail('a control character in a name must be escaped (\\n, \\t, \\u0001…)', 'name');
      if (point >= 0xd800 && point <= 0xdfff) this.fail('a lone surrogate in a name', 'name');
      const char = String.fromCodePoint(point);
      name += char;
      this.#at += char.length;
    }
  }

  escape(quote: string): string {
    const at = this.#at;
    const c = this.text[at + 1];
    this.#at += 2;
    if (c === quote) return quote;
    if (c !== undefined && c in ESCAPES) return ESCAPES[c]!;
    if (c !== 'u') {
      const allowed = `\\${quote}, \\b, \\f, \\n, \\r, \\t, \\/, \\\\, \\uXXXX`;
      this.fail(
        `unknown escape ${JSON.stringify(`\\${c ?? ''}`)} (allowed: ${allowed})`,
        'escape',
        at,
      );
    }
    const high = this.hex4(at);
    if (high >= 0xdc00 && high <= 0xdfff)
      this.fail('a low surrogate without a high one', 'escape', at);
    if (high < 0xd800 || high > 0xdbff) return String.fromCharCode(high);
    if (this.text.slice(this.#at, this.#at + 2) !== '\\u')
      this.fail('a high surrogate must be followed by a low one (\\uD834\\uDD1E)', 'escape', at);
    this.#at += 2;
    const low = this.hex4(at);
    if (low < 0xdc00 || low > 0xdfff)
      this.fail('a high surrogate must be followed by a low one (\\uD834\\uDD1E)', 'escape', at);
    return String.fromCharCode(high, low);
  }

  hex4(escapeAt: number): number {
    const hex = this.text.slice(this.#at, this.#at + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(hex))
      this.fail('\\u takes exactly four hexadecimal digits', 'escape', escapeAt);
    this.#at += 4;
    return Number.parseInt(hex, 16);
  }

  blanks(): void {
    while (BLANK.has(this.peek() ?? '')) this.#at++;
  }

  peek(): string | undefined {
    return this.text[this.#at];
  }

  /** The character at the cursor, quoted, or "the end". */
  shown(): string {
    const point = this.text.codePointAt(this.#at);
    return point === undefined ? 'the end' : JSON.stringify(String.fromCodePoint(point));
  }

  fail(problem: string, part: string, position = this.#at): never {
    throw new SyntaxFailure({ problem, part, position });
  }
}

/** A key in brackets, quoted and escaped as RFC 9535 reads it. */
function bracketed(key: string): string {
  let escaped = '';
  for (const c of key) {
    if (c === '\\' || c === "'") escaped += `\\${c}`;
    else if (c < ' ') escaped += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else escaped += c;
  }
  return `['${escaped}']`;
}

/** name-first of RFC 9535: ALPHA / "_" / %x80-D7FF / %xE000-10FFFF. */
function isNameFirst(point: number): boolean {
  return (
    (point >= 0x41 && point <= 0x5a) ||
    (point >= 0x61 && point <= 0x7a) ||
    point === 0x5f ||
    (point >= 0x80 && point <= 0xd7ff) ||
    point >= 0xe000
  );
}
