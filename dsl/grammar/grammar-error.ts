/**
 * The one error shape of every grammar (durations, thresholds, placeholders, JSONPath) and the one
 * place its message is worded, so all grammars read alike:
 *
 *   invalid <grammar> <quoted input>: <problem> (<part> at character <position + 1>)
 *     [; did you mean "<guess>"?][. Allowed: <a>, <b>, …]     ("?" replaces "." when both appear)
 *
 * e.g. invalid duration "30": a unit is required after "30" (unit at character 3). Allowed: ms, s, m, h
 */

/** A grammar failure as data: the user-facing message, which part failed, where, and what fits. */
export interface GrammarError {
  /** Complete, user-facing: quotes the input and names the failing part. */
  readonly message: string;
  /** The failing part of the grammar, e.g. `unit`, `metric`, `operator`, `name`. */
  readonly part: string;
  /** 0-based character (UTF-16 code unit) index in the input where the failing part starts. */
  readonly position: number;
  /** The values that would have been accepted in that place, when there is a finite list. */
  readonly allowed?: readonly string[];
}

/** What a parser knows about a failure; grammarError() turns it into a worded GrammarError. */
export interface GrammarFailure {
  /** The grammar's name as users know it: `duration`, `threshold`, `template`. */
  readonly grammar: string;
  readonly input: string;
  readonly part: string;
  readonly position: number;
  /** The problem in plain words, e.g. `unknown metric "foo"`. */
  readonly problem: string;
  readonly allowed?: readonly string[];
  /** A near miss to suggest ("did you mean"), usually from closest(). */
  readonly guess?: string | undefined;
}

/** Inputs longer than this are quoted as an excerpt around the failure, not whole. */
const MAX_QUOTED = 80;
/** Characters kept on each side of the failure when quoting an excerpt. */
const EXCERPT_SIDE = 30;

/** Builds a GrammarError whose message follows the format at the top of this file. */
export function grammarError(failure: GrammarFailure): GrammarError {
  const { grammar, input, part, position, problem, allowed, guess } = failure;
  let message = `invalid ${grammar} ${quoteInput(input, position)}: ${problem} (${part} at character ${position + 1})`;
  if (guess !== undefined) message += `; did you mean "${guess}"?`;
  if (allowed !== undefined && allowed.length > 0) {
    message += `${guess === undefined ? '.' : ''} Allowed: ${allowed.join(', ')}`;
  }
  return allowed === undefined ? { message, part, position } : { message, part, position, allowed };
}

/**
 * Quotes the input as a JSON string (control characters and quotes escaped, so the message stays
 * one line); a long input (a request body) is cut to an excerpt around the failing position.
 */
export function quoteInput(input: string, position: number): string {
  if (input.length <= MAX_QUOTED) return JSON.stringify(input);
  const start = Math.max(0, position - EXCERPT_SIDE);
  const end = Math.min(input.length, position + EXCERPT_SIDE);
  const head = start > 0 ? '…' : '';
  const tail = end < input.length ? '…' : '';
  return `${head}${JSON.stringify(input.slice(start, end))}${tail}`;
}

/** The character at a position as users see it: a whole code point, never half a surrogate pair. */
export function charAt(input: string, position: number): string {
  const code = input.codePointAt(position);
  return code === undefined ? '' : String.fromCodePoint(code);
}
