/**
 * The web's DOMException, and the helpers every web global shares: the web's conversions of
 * DOMString and USVString, and its "n arguments required" check.
 */

/** ToString, as the web converts a DOMString (a Symbol throws a TypeError). */
export const text = (value: unknown): string => `${value as string}`;

/** A USVString: lone surrogates become U+FFFD. */
export const usv = (value: unknown): string => text(value).toWellFormed();

/** Throws the web's TypeError when fewer than `count` arguments were given. */
export const needs = (count: number, given: number, what: string): void => {
  if (given < count)
    throw new TypeError(
      `${what}: ${count} argument${count > 1 ? 's' : ''} required, but only ${given} present`,
    );
};

const DOM_CODES: Readonly<Record<string, number>> = {
  IndexSizeError: 1,
  InvalidCharacterError: 5,
  SyntaxError: 12,
  TypeMismatchError: 17,
  QuotaExceededError: 22,
  DataCloneError: 25,
};

export class DOMException extends Error {
  constructor(message: unknown = '', name: unknown = 'Error') {
    super(text(message));
    Object.defineProperty(this, 'name', { value: text(name), writable: true, configurable: true });
  }
  get code(): number {
    return DOM_CODES[this.name] ?? 0;
  }
}

/** The value of a host call that may fail with a DOMException, or that exception thrown. */
export const domResult = <T>(result: readonly [0, T] | readonly [1, string, string]): T => {
  if (result[0] === 1) throw new DOMException(result[2], result[1]);
  return result[1];
};
