/**
 * How a variable's value is written where its placeholder sits (Encoding, model/plan/template.ts).
 * Each is the platform's own encoder (encodeURIComponent, URLSearchParams, JSON.stringify); compile
 * uses them for literal text, the per-request path for values.
 */
import type { Encoding } from '../plan/template.js';

/** Writes a value; `typed` says the value is JSON text of a non-string (variable-store.ts). */
export type Encode = (value: string, typed: boolean) => string;

/**
 * encodeURIComponent, which throws on a lone surrogate (a JSON body may hold "\ud800"): such a
 * value is first made well-formed the way UTF-8 encoding does it (U+FFFD), as URLSearchParams does.
 */
function uri(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
  }
}

/** application/x-www-form-urlencoded: URLSearchParams' serialization of the value (space → +). */
export function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

const ENCODERS: Readonly<Record<Encoding, Encode>> = {
  raw: (value) => value,
  uri,
  form: formEncode,
  json: (value) => JSON.stringify(value).slice(1, -1),
  'json-value': (value, typed) => (typed ? value : JSON.stringify(value)),
};

/** The encoder of an encoding; undefined (unset) is raw. */
export function encoderOf(encoding: Encoding | undefined): Encode {
  return ENCODERS[encoding ?? 'raw'];
}
