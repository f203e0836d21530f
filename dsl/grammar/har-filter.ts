/**
 * HAR filter expressions (DESIGN.md §5): which recorded entries `barrage har` and `run --har` keep.
 * scanHarFilter() cuts the expression into criteria at white space without judging them, then each
 * criterion is parsed strictly, left to right, so the first error names the criterion and the part
 * that is wrong.
 *
 *   filter       := ws* criterion (ws+ criterion)* ws*
 *   criterion    := "!"? (key ":" alternatives | "static")
 *   key          := "host" | "method" | "type" | "status" | "path"   (keys and "static" in any case)
 *   alternatives := glob ("|" glob)*
 *   glob         := (char | "*")+                   not starting with "!"; "*" matches any run of
 *                                                   characters, even none
 *   char         := any character but white space and "|"; by key:
 *     host       := [A-Za-z0-9.-_:[]]               ("api.example.com", "*.example.com", "h:8080")
 *     method     := [A-Za-z]                        ("GET", "post")
 *     type       := [A-Za-z0-9.+-_/]                ("application/json", "image/*", "json")
 *     status     := [0-9] | "x" | "X"               three characters ("200", "2xx") unless a "*"
 *                                                   is in the glob ("2*"); "x" is one digit
 *     path       := any                             starts with "/" or "*" ("/api/*")
 *   ws           := any white space
 *
 * Meaning: an entry is kept when every criterion holds (several criteria, in one expression or in
 * repeated flags, all must match); a criterion holds when any alternative matches, and "!"
 * inverts it. host, method and type compare without case; path and status as written.
 * - host: a glob with ":" is matched against host:port, one without against the host name alone.
 * - type: the response's media type without parameters ("application/json"); a glob without "/"
 *   also matches the type or the subtype alone or a +suffix: "json" matches application/json and
 *   application/problem+json, "image" matches image/png.
 * - path: the URL path without the query.
 * - static: the response is an image, font, stylesheet, script or media file (by the browser's
 *   resource type, the media type, or the path's extension); "!static" drops them in one word.
 *
 * e.g. `host:*.example.com|api.test !method:OPTIONS type:json`, `!static`, `status:2xx|304`.
 */
import { closest } from './did-you-mean.js';
import { grammarError, type GrammarError } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

/** The keys a criterion may test. */
export const HAR_FILTER_KEYS = ['host', 'method', 'type', 'status', 'path'] as const;

/** A key of a criterion, or `static` for the one-word criterion. */
export type HarFilterKey = (typeof HAR_FILTER_KEYS)[number] | 'static';

/** What a criterion is tested against: the facts of one recorded entry. */
export interface HarEntryFacts {
  /** Host name, lower case, without port. */
  readonly hostname: string;
  /** Host name and port as in the URL (default ports omitted), lower case. */
  readonly host: string;
  /** Request method, upper case. */
  readonly method: string;
  /** Response media type without parameters, lower case; "" when none was recorded. */
  readonly type: string;
  readonly status: number;
  /** URL path, without the query. */
  readonly path: string;
  /** True for images, fonts, stylesheets, scripts and media. */
  readonly isStatic: boolean;
}

/** One parsed criterion: compiled once, tested against every entry. */
export interface HarCriterion {
  /** The criterion as written, e.g. `!method:GET|HEAD` (summaries name it). */
  readonly text: string;
  readonly key: HarFilterKey;
  readonly negated: boolean;
  /** One pattern per alternative (empty for `static`). */
  readonly patterns: readonly HarPattern[];
}

/** One alternative of a criterion, compiled. */
export interface HarPattern {
  /** Anchored: the whole value must match. */
  readonly regex: RegExp;
  /** For host globs: true when the glob names a port, so it is tested against host:port. */
  readonly withPort: boolean;
}

/** Allowed characters of a glob, by key ("*" is allowed for every key). */
const CHARS: Readonly<Record<(typeof HAR_FILTER_KEYS)[number], RegExp>> = {
  host: /^[A-Za-z0-9._:[\]-]$/,
  method: /^[A-Za-z]$/,
  type: /^[A-Za-z0-9.+_/-]$/,
  status: /^[0-9xX]$/,
  path: /^\S$/u,
};

/** What each key's values look like, for error messages. */
const EXAMPLES: Readonly<Record<(typeof HAR_FILTER_KEYS)[number], string>> = {
  host: 'host:api.example.com or host:*.example.com',
  method: 'method:GET or method:POST|PUT',
  type: 'type:application/json, type:image/* or type:json',
  status: 'status:200, status:2xx or status:2*',
  path: 'path:/api/*',
};

const WORDS: readonly string[] = [...HAR_FILTER_KEYS.map((key) => `${key}:`), 'static'];

/** A criterion as scanned: its text and where it starts in the expression. */
interface Slice {
  readonly text: string;
  readonly start: number;
}

type Fail = (
  part: string,
  position: number,
  problem: string,
  options?: { readonly allowed?: readonly string[]; readonly guess?: string | undefined },
) => GrammarError;

/** Parses a filter expression into its criteria (all must hold). */
export function parseHarFilter(expression: string): Result<HarCriterion[], GrammarError> {
  const fail: Fail = (part, position, problem, options) =>
    grammarError({ grammar: 'HAR filter', input: expression, part, position, problem, ...options });
  const slices = scanHarFilter(expression);
  if (slices.length === 0) {
    return err(
      fail('criterion', 0, 'a criterion is required, such as !static or method:GET', {
        allowed: WORDS,
      }),
    );
  }
  const criteria: HarCriterion[] = [];
  for (const slice of slices) {
    const criterion = parseCriterion(slice, fail);
    if (!criterion.ok) return criterion;
    criteria.push(criterion.value);
  }
  return ok(criteria);
}

/** Cuts the expression at white space; never fails, judges nothing. */
function scanHarFilter(text: string): Slice[] {
  const slices: Slice[] = [];
  const pattern = /\S+/gu;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text))
    slices.push({ text: match[0], start: match.index });
  return slices;
}

/** `!`? then `static` or `key:alternatives`. */
function parseCriterion(slice: Slice, fail: Fail): Result<HarCriterion, GrammarError> {
  const negated = slice.text.startsWith('!');
  const start = slice.start + (negated ? 1 : 0);
  const body = negated ? slice.text.slice(1) : slice.text;
  if (body === '' || body.startsWith('!')) {
    const problem =
      body === ''
        ? '"!" must be followed directly by a criterion, as in !method:GET'
        : 'a criterion can be negated once: write one "!"';
    return err(fail('criterion', start, problem, { allowed: WORDS }));
  }
  const colon = body.indexOf(':');
  const word = colon < 0 ? body : body.slice(0, colon);
  if (colon < 0 && word.toLowerCase() === 'static')
    return ok({ text: slice.text, key: 'static', negated, patterns: [] });
  const key = HAR_FILTER_KEYS.find((k) => k === word.toLowerCase());
  if (key === undefined) {
    const problem =
      colon < 0
        ? `"${word}" is not a criterion: write key:value or static`
        : `unknown key "${word}"`;
    const guess = closest(word, [...HAR_FILTER_KEYS, 'static']);
    return err(fail('key', start, problem, { allowed: WORDS, guess }));
  }
  if (colon < 0)
    return err(
      fail(
        'value',
        start + word.length,
        `a ":" and a value must follow "${word}", as in ${EXAMPLES[key]}`,
      ),
    );
  const patterns: HarPattern[] = [];
  let at = start + colon + 1;
  for (const glob of body.slice(colon + 1).split('|')) {
    const checked = checkGlob(key, glob, at, fail);
    if (!checked.ok) return checked;
    patterns.push(compileGlob(key, glob));
    at += glob.length + 1;
  }
  return ok({ text: slice.text, key, negated, patterns });
}

/** A glob must be non-empty and made of the key's characters (and "*"). */
function checkGlob(
  key: (typeof HAR_FILTER_KEYS)[number],
  glob: string,
  at: number,
  fail: Fail,
): Result<true, GrammarError> {
  if (glob === '') {
    return err(
      fail('value', at, `a value is required here (${key} values look like ${EXAMPLES[key]})`),
    );
  }
  if (glob.startsWith('!'))
    return err(fail('value', at, `put "!" before the key to negate: !${key}:${glob.slice(1)}`));
  let offset = 0;
  for (const c of glob) {
    if (c !== '*' && !CHARS[key].test(c)) {
      return err(
        fail('value', at + offset, `"${c}" cannot appear in a ${key} value`, {
          allowed: [EXAMPLES[key]],
        }),
      );
    }
    offset += c.length;
  }
  if (key === 'status' && !glob.includes('*') && glob.length !== 3)
    return err(
      fail('value', at, `a status has three digits, got "${glob}"`, { allowed: [EXAMPLES.status] }),
    );
  if (key === 'path' && !glob.startsWith('/') && !glob.startsWith('*'))
    return err(
      fail('value', at, `a path starts with "/" (or "*"), got "${glob}"`, {
        allowed: [EXAMPLES.path],
      }),
    );
  return ok(true);
}

/**
 * A glob → an anchored RegExp: "*" → ".*", status "x" → one digit, everything else literal.
 * A type glob without "/" matches the whole type, or its type, subtype or "+suffix" alone.
 * A host glob names a port when it has a ":" outside IPv6 brackets ("h:8080", "[::1]:8080").
 */
function compileGlob(key: (typeof HAR_FILTER_KEYS)[number], glob: string): HarPattern {
  let source = '';
  for (const c of glob) {
    if (c === '*') source += '.*';
    else if (key === 'status' && (c === 'x' || c === 'X')) source += '\\d';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  if (key === 'type' && !glob.includes('/')) source = `(?:.*/)?(?:[^/]*\\+)?${source}(?:/.*)?`;
  const flags = key === 'path' || key === 'status' ? 'su' : 'isu';
  const withPort =
    key === 'host' && (glob.startsWith('[') ? glob.includes(']:') : glob.includes(':'));
  return { regex: new RegExp(`^(?:${source})$`, flags), withPort };
}

/** True when the entry satisfies the criterion (negation applied). */
export function criterionHolds(criterion: HarCriterion, facts: HarEntryFacts): boolean {
  return criterion.negated !== matchesCriterion(criterion, facts);
}

function matchesCriterion(criterion: HarCriterion, facts: HarEntryFacts): boolean {
  if (criterion.key === 'static') return facts.isStatic;
  return criterion.patterns.some((pattern) =>
    pattern.regex.test(subject(criterion.key, pattern, facts)),
  );
}

/** The entry's value a pattern of this key is tested against. */
function subject(key: HarFilterKey, pattern: HarPattern, facts: HarEntryFacts): string {
  switch (key) {
    case 'host':
      return pattern.withPort ? facts.host : facts.hostname;
    case 'method':
      return facts.method;
    case 'type':
      return facts.type;
    case 'status':
      return String(facts.status);
    default:
      return facts.path;
  }
}
