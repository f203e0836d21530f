/**
 * Placeholder templates (DESIGN.md §4) for urls, headers and bodies, parsed once at load time into
 * a Template (model/plan/template.ts) that the per-request path only fills.
 *
 *   template    := (escape | placeholder | literal)*
 *   escape      := "\{{"                               → the literal text "{{"
 *   placeholder := "{{" ws* body ws* "}}"              (closed by the first "}}" after it)
 *   body        := name
 *                | "$raw" ws+ name                   (the variable unencoded, wherever it sits)
 *                | "$uuid" | "$timestamp" | "$isoTimestamp"
 *                | "$randomInt" ws+ integer ws+ integer (MIN <= MAX, both inclusive)
 *                | "$randomString" ws+ digit+          (a length from 1 to 10000)
 *                | "$randomItem" ws+ name              (one item of the JSON list a variable holds)
 *                | "$env" ws+ env-name
 *   name        := [A-Za-z_] [A-Za-z0-9_.-]*
 *   env-name    := [A-Za-z_] [A-Za-z0-9_]*
 *   integer     := "-"? digit+                         (a safe integer)
 *   literal     := any other character; a lone "}}" or "{" is literal
 *
 * In a run of three or more "{", the placeholder opens at the last two and the others are literal,
 * so JSON such as {"user":{{{user}}}} reads as "{" + {{user}} + "}". A backslash escapes only
 * "{{" ("\{{" → "{{"); every other backslash is literal, so JSON escapes like "\n" in a body stay
 * as written. The price: text ending in "\" or "\{" cannot come directly before a placeholder,
 * since that backslash and the opening braces read as the escape "\{{".
 *
 * A {{name}} is encoded by where it sits (percent-encoded in a url, JSON-escaped in a JSON body:
 * the Encoding of model/plan/template.ts, set at compile time); {{$raw name}} inserts the value as
 * it is anywhere, for a value that already is a path or a query (an extracted Location).
 *
 * Scan, then judge: the scanner finds each "{{…}}" and its body, parseBody() judges the body.
 */
import type { Template, TemplatePart } from '../../model/plan/template.js';
import { closest } from './did-you-mean.js';
import { grammarError, type GrammarError } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const NAME_CHAR = /^[A-Za-z0-9_.-]$/;
/** An environment variable's name, as `{{$env NAME}}` and `${NAME}` take it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^-?\d+$/;
const BUILTINS: readonly string[] = [
  '$raw',
  '$uuid',
  '$timestamp',
  '$isoTimestamp',
  '$randomInt',
  '$randomString',
  '$randomItem',
  '$env',
];
const USAGE: readonly string[] = [
  '{{$raw name}}',
  '{{$uuid}}',
  '{{$timestamp}}',
  '{{$isoTimestamp}}',
  '{{$randomInt MIN MAX}}',
  '{{$randomString LENGTH}}',
  '{{$randomItem name}}',
  '{{$env NAME}}',
];
/** The longest `{{$randomString N}}`. */
const MAX_RANDOM_STRING = 10_000;

type Fail = (
  part: string,
  position: number,
  problem: string,
  allowed?: readonly string[],
  guess?: string,
) => GrammarError;

/** A word of a placeholder body and where it starts in the template. */
interface Word {
  readonly text: string;
  readonly start: number;
}

/** Parses text with {{name}} and {{$builtin …}} placeholders into a Template. */
export function parseTemplate(text: string): Result<Template, GrammarError> {
  const fail: Fail = (part, position, problem, allowed, guess) =>
    grammarError({
      grammar: 'template',
      input: text,
      part,
      position,
      problem,
      guess,
      ...(allowed ? { allowed } : {}),
    });
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('\\{{', i)) {
      literal += '{{';
      i += 3;
    } else if (text.startsWith('{{', i) && text[i + 2] !== '{') {
      const close = text.indexOf('}}', i + 2);
      if (close < 0)
        return err(
          fail('placeholder', i, '"{{" is never closed by "}}"; write \\{{ for a literal "{{"'),
        );
      const part = parseBody(text.slice(i + 2, close), i + 2, fail);
      if (!part.ok) return part;
      if (literal !== '') parts.push(literal);
      literal = '';
      parts.push(part.value);
      i = close + 2;
    } else {
      literal += text[i] ?? '';
      i++;
    }
  }
  if (literal !== '') parts.push(literal);
  return ok(parts);
}

/** Judges the text between "{{" and "}}"; offset is where that text starts in the template. */
function parseBody(body: string, offset: number, fail: Fail): Result<TemplatePart, GrammarError> {
  const words = splitWords(body, offset);
  const [head, ...args] = words;
  if (head === undefined) {
    return err(
      fail(
        'placeholder',
        offset - 2,
        'empty placeholder "{{}}"; write {{name}} or a built-in',
        USAGE,
      ),
    );
  }
  if (head.text.startsWith('$')) return parseBuiltin(head, args, fail);
  if (args.length > 0) {
    const at = args[0]?.start ?? head.start;
    return err(fail('name', at, `a name cannot contain spaces: "${body.trim()}"`));
  }
  return parseName(head, fail);
}

/** A variable name: a letter or "_", then letters, digits, "_", "." or "-". */
function parseName(word: Word, fail: Fail): Result<TemplatePart, GrammarError> {
  if (!NAME.test(word.text)) {
    const bad = [...word.text].findIndex((c, index) =>
      index === 0 ? !/^[A-Za-z_]$/.test(c) : !NAME_CHAR.test(c),
    );
    const at = word.start + [...word.text].slice(0, Math.max(bad, 0)).join('').length;
    const problem = `"${word.text}" is not a valid name: names start with a letter or "_" and go on with letters, digits, "_", "." or "-"`;
    return err(fail('name', at, problem));
  }
  return ok({ var: word.text });
}

/** Judges a `$builtin args…` body: the built-in must exist and get the arguments it takes. */
function parseBuiltin(
  head: Word,
  args: readonly Word[],
  fail: Fail,
): Result<TemplatePart, GrammarError> {
  const name = head.text;
  const extra = (expected: string): Result<TemplatePart, GrammarError> => {
    const at = args[0]?.start ?? head.start + name.length;
    return err(fail('argument', at, `${name} takes ${expected}, got ${args.length}`));
  };
  switch (name) {
    case '$raw': {
      const variable = args[0];
      if (variable === undefined) {
        return err(fail('argument', head.start + name.length, 'missing name: write {{$raw name}}'));
      }
      if (args.length > 1) return extra('one argument, a variable name');
      const part = parseName(variable, fail);
      return part.ok ? ok({ var: variable.text, encoding: 'raw' }) : part;
    }
    case '$uuid':
      return args.length === 0 ? ok({ fn: 'uuid' }) : extra('no arguments');
    case '$timestamp':
      return args.length === 0 ? ok({ fn: 'timestamp' }) : extra('no arguments');
    case '$isoTimestamp':
      return args.length === 0 ? ok({ fn: 'isoTimestamp' }) : extra('no arguments');
    case '$randomItem': {
      const variable = args[0];
      if (variable === undefined)
        return err(
          fail('argument', head.start + name.length, 'missing name: write {{$randomItem name}}'),
        );
      if (args.length > 1) return extra('one argument, a variable name');
      const part = parseName(variable, fail);
      return part.ok ? ok({ fn: 'randomItem', list: variable.text }) : part;
    }
    case '$randomString':
      return parseRandomString(head, args, fail);
    case '$env': {
      const variable = args[0];
      if (variable === undefined) {
        return err(fail('argument', head.start + name.length, 'missing NAME: write {{$env NAME}}'));
      }
      if (args.length > 1) return extra('one argument, NAME');
      if (!ENV_NAME.test(variable.text)) {
        const problem = `"${variable.text}" is not an environment variable name: letters, digits and "_", not starting with a digit`;
        return err(fail('argument', variable.start, problem));
      }
      return ok({ fn: 'env', name: variable.text });
    }
    case '$randomInt':
      return parseRandomInt(head, args, fail);
    default:
      return err(
        fail('builtin', head.start, `unknown built-in "${name}"`, USAGE, closest(name, BUILTINS)),
      );
  }
}

/** `$randomInt MIN MAX`: two safe integers with MIN <= MAX, both inclusive. */
function parseRandomInt(
  head: Word,
  args: readonly Word[],
  fail: Fail,
): Result<TemplatePart, GrammarError> {
  const [low, high] = args;
  if (low === undefined || high === undefined || args.length > 2) {
    const at = args[2]?.start ?? head.start + head.text.length;
    return err(
      fail(
        'argument',
        at,
        `$randomInt takes two integers, MIN and MAX, got ${args.length}: write {{$randomInt 1 100}}`,
      ),
    );
  }
  const bounds: number[] = [];
  for (const word of [low, high]) {
    const value = Number(word.text);
    if (!INTEGER.test(word.text) || !Number.isSafeInteger(value)) {
      return err(
        fail(
          'argument',
          word.start,
          `"${word.text}" is not an integer; $randomInt takes two integers, MIN and MAX`,
        ),
      );
    }
    bounds.push(value);
  }
  const [min = 0, max = 0] = bounds;
  if (min > max)
    return err(fail('argument', low.start, `$randomInt needs MIN <= MAX, got ${min} > ${max}`));
  return ok({ fn: 'randomInt', min, max });
}

/** `$randomString LENGTH`: a length from 1 to MAX_RANDOM_STRING. */
function parseRandomString(
  head: Word,
  args: readonly Word[],
  fail: Fail,
): Result<TemplatePart, GrammarError> {
  const [length] = args;
  if (length === undefined || args.length > 1) {
    const at = args[1]?.start ?? head.start + head.text.length;
    return err(
      fail(
        'argument',
        at,
        `$randomString takes one length, got ${args.length}: write {{$randomString 8}}`,
      ),
    );
  }
  const value = Number(length.text);
  if (!/^\d+$/.test(length.text) || value < 1 || value > MAX_RANDOM_STRING)
    return err(
      fail(
        'argument',
        length.start,
        `"${length.text}" is not a length from 1 to ${MAX_RANDOM_STRING} for $randomString`,
      ),
    );
  return ok({ fn: 'randomString', length: value });
}

/** Splits a placeholder body at white space, keeping each word's position in the template. */
function splitWords(body: string, offset: number): Word[] {
  const words: Word[] = [];
  for (const match of body.matchAll(/\S+/gu)) {
    words.push({ text: match[0], start: offset + match.index });
  }
  return words;
}

/** True when the text parses and starts with a {{name}} or {{$raw name}}: a url from a variable. */
export function startsWithVariable(text: string): boolean {
  const parsed = parseTemplate(text);
  const first = parsed.ok ? parsed.value[0] : undefined;
  return typeof first === 'object' && 'var' in first;
}

/** True when the template has no placeholders: it is its own text, sent as is. */
export function isStatic(t: Template): boolean {
  return t.every((part) => typeof part === 'string');
}
