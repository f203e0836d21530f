/**
 * The web globals of a scenario's context (docs/scenarios.md, "Environment and web globals"):
 * URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, structuredClone, crypto
 * (randomUUID, getRandomValues) and DOMException, with their web semantics. The sandbox's V8 has
 * none of them; parsing, encoding, hashing and randomness are done by Node's own implementations
 * on the host (web-host.ts), called synchronously (about 2 µs a call), so nothing here parses a
 * URL or codes UTF-8 by hand. What is left in the isolate is the objects' shape: a URL's parts, a
 * query's list of pairs and its link to its URL, argument checks, and turning the host's
 * answers into the errors the web throws.
 *
 * Also barrage's `crypto` helper (k6/crypto's names: hash, hmac, md5…sha512, randomBytes), which
 * the scenario imports from 'barrage'. Shared by the options reader and the sandbox's bootstrap,
 * so it sits beside removed-globals.ts.
 */
import { MAX_RANDOM_BYTES } from './web-host.js';

/**
 * An expression that installs the web globals on the context's global and evaluates to barrage's
 * crypto helper. It needs `web` in scope: web-host.ts's webHost as an isolated-vm Callback.
 */
export const WEB_GLOBALS_SOURCE = `(() => {
'use strict';
// ToString, as the web converts a DOMString (a Symbol throws a TypeError), and a USVString (lone
// surrogates become U+FFFD).
const text = (value) => \`\${value}\`;
const usv = (value) => text(value).toWellFormed();
const needs = (count, given, what) => {
  if (given < count) throw new TypeError(what + ': ' + count + ' argument' + (count > 1 ? 's' : '') + ' required, but only ' + given + ' present');
};
const define = (name, value) =>
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });

const DOM_CODES = { IndexSizeError: 1, InvalidCharacterError: 5, SyntaxError: 12, TypeMismatchError: 17, QuotaExceededError: 22, DataCloneError: 25 };
class DOMException extends Error {
  constructor(message = '', name = 'Error') {
    super(text(message));
    Object.defineProperty(this, 'name', { value: text(name), writable: true, configurable: true });
  }
  get code() {
    return DOM_CODES[this.name] ?? 0;
  }
}
// A host call that may fail with a DOMException: [0, value] or [1, name, message].
const domResult = (result) => {
  if (result[0] === 1) throw new DOMException(result[2], result[1]);
  return result[1];
};

// A query's pairs are kept here; parsing and serializing are the host's. A URL's searchParams
// tells its URL of every change (onChange), and the URL replaces its pairs when its query changes.
let attach;
let reparse;
class URLSearchParams {
  #list = [];
  #onChange = undefined;
  static {
    attach = (params, onChange) => {
      params.#onChange = onChange;
    };
    reparse = (params, search) => {
      params.#list = URLSearchParams.#parse(search);
    };
  }
  static #parse(query) {
    const flat = web('query.parse', query.startsWith('?') ? query.slice(1) : query);
    const list = [];
    for (let i = 0; i + 1 < flat.length; i += 2) list.push([flat[i], flat[i + 1]]);
    return list;
  }
  constructor(init = '') {
    if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const items = pair !== null && typeof pair === 'object' && typeof pair[Symbol.iterator] === 'function' ? [...pair] : undefined;
          if (items === undefined || items.length !== 2)
            throw new TypeError("URLSearchParams: each pair must be a sequence of exactly two items");
          this.#list.push([usv(items[0]), usv(items[1])]);
        }
      } else
        for (const key of Reflect.ownKeys(init))
          if (typeof key === 'string' && Object.prototype.propertyIsEnumerable.call(init, key))
            this.#list.push([usv(key), usv(init[key])]);
    } else this.#list = URLSearchParams.#parse(usv(init));
  }
  #update() {
    this.#onChange?.(this.toString());
  }
  get size() {
    return this.#list.length;
  }
  append(name, value) {
    needs(2, arguments.length, 'URLSearchParams.append');
    this.#list.push([usv(name), usv(value)]);
    this.#update();
  }
  delete(name, value) {
    needs(1, arguments.length, 'URLSearchParams.delete');
    const n = usv(name);
    const v = value === undefined ? undefined : usv(value);
    this.#list = this.#list.filter(([k, w]) => k !== n || (v !== undefined && w !== v));
    this.#update();
  }
  get(name) {
    needs(1, arguments.length, 'URLSearchParams.get');
    const n = usv(name);
    return this.#list.find(([k]) => k === n)?.[1] ?? null;
  }
  getAll(name) {
    needs(1, arguments.length, 'URLSearchParams.getAll');
    const n = usv(name);
    return this.#list.filter(([k]) => k === n).map(([, v]) => v);
  }
  has(name, value) {
    needs(1, arguments.length, 'URLSearchParams.has');
    const n = usv(name);
    const v = value === undefined ? undefined : usv(value);
    return this.#list.some(([k, w]) => k === n && (v === undefined || w === v));
  }
  set(name, value) {
    needs(2, arguments.length, 'URLSearchParams.set');
    const n = usv(name);
    const at = this.#list.findIndex(([k]) => k === n);
    if (at === -1) this.#list.push([n, usv(value)]);
    else this.#list = this.#list.filter(([k], i) => i <= at || k !== n).map((pair, i) => (i === at ? [n, usv(value)] : pair));
    this.#update();
  }
  sort() {
    // Stable, by UTF-16 code units, as the web sorts.
    this.#list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#update();
  }
  forEach(callback, thisArg) {
    for (let i = 0; i < this.#list.length; i++) callback.call(thisArg, this.#list[i][1], this.#list[i][0], this);
  }
  *entries() {
    for (let i = 0; i < this.#list.length; i++) yield [this.#list[i][0], this.#list[i][1]];
  }
  *keys() {
    for (let i = 0; i < this.#list.length; i++) yield this.#list[i][0];
  }
  *values() {
    for (let i = 0; i < this.#list.length; i++) yield this.#list[i][1];
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  toString() {
    return web('query.serialize', this.#list.flat());
  }
  get [Symbol.toStringTag]() {
    return 'URLSearchParams';
  }
}

// A URL is its parts as the host's WHATWG URL gives them, in this order; a setter hands the href
// and the new value to the host and takes the parts it answers.
const PART = { href: 0, origin: 1, protocol: 2, username: 3, password: 4, host: 5, hostname: 6, port: 7, pathname: 8, search: 9, hash: 10 };
class URL {
  #parts;
  #query = undefined;
  constructor(url, base) {
    needs(1, arguments.length, 'URL');
    this.#parts = base === undefined ? web('url', usv(url)) : web('url', usv(url), usv(base));
  }
  static canParse(url, base) {
    needs(1, arguments.length, 'URL.canParse');
    return base === undefined ? web('url.canParse', usv(url)) : web('url.canParse', usv(url), usv(base));
  }
  static parse(url, base) {
    needs(1, arguments.length, 'URL.parse');
    return URL.canParse(url, base) ? new URL(url, base) : null;
  }
  #set(part, value) {
    this.#parts = web('url.set', this.#parts[0], part, usv(value));
    if (this.#query !== undefined) reparse(this.#query, this.#parts[PART.search]);
  }
  get searchParams() {
    if (this.#query === undefined) {
      this.#query = new URLSearchParams(this.#parts[PART.search]);
      attach(this.#query, (query) => {
        this.#parts = web('url.set', this.#parts[0], 'search', query);
      });
    }
    return this.#query;
  }
  get href() { return this.#parts[0]; }
  set href(value) { this.#set('href', value); }
  get origin() { return this.#parts[1]; }
  get protocol() { return this.#parts[2]; }
  set protocol(value) { this.#set('protocol', value); }
  get username() { return this.#parts[3]; }
  set username(value) { this.#set('username', value); }
  get password() { return this.#parts[4]; }
  set password(value) { this.#set('password', value); }
  get host() { return this.#parts[5]; }
  set host(value) { this.#set('host', value); }
  get hostname() { return this.#parts[6]; }
  set hostname(value) { this.#set('hostname', value); }
  get port() { return this.#parts[7]; }
  set port(value) { this.#set('port', value); }
  get pathname() { return this.#parts[8]; }
  set pathname(value) { this.#set('pathname', value); }
  get search() { return this.#parts[9]; }
  set search(value) { this.#set('search', value); }
  get hash() { return this.#parts[10]; }
  set hash(value) { this.#set('hash', value); }
  toString() { return this.#parts[0]; }
  toJSON() { return this.#parts[0]; }
  get [Symbol.toStringTag]() { return 'URL'; }
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(input = '') {
    return web('encode', text(input));
  }
  encodeInto(source, destination) {
    needs(2, arguments.length, 'TextEncoder.encodeInto');
    if (!(destination instanceof Uint8Array)) throw new TypeError('TextEncoder.encodeInto(): the destination must be a Uint8Array');
    const [read, written, bytes] = web('encodeInto', text(source), destination.length);
    destination.set(bytes);
    return { read, written };
  }
}

// Only the bytes a view covers cross to the host, not its whole buffer.
const ownBytes = (data) => {
  if (data instanceof ArrayBuffer) return data;
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) return data.buffer;
  return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
};
class TextDecoder {
  #label;
  #fatal;
  #ignoreBOM;
  #encoding;
  constructor(label = 'utf-8', options = undefined) {
    this.#label = text(label);
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
    this.#encoding = web('decoder', this.#label, this.#fatal, this.#ignoreBOM);
  }
  get encoding() {
    return this.#encoding;
  }
  get fatal() {
    return this.#fatal;
  }
  get ignoreBOM() {
    return this.#ignoreBOM;
  }
  decode(input = undefined, options = undefined) {
    if (options?.stream) throw new TypeError('TextDecoder.decode(): { stream: true } is not supported in a scenario');
    if (input === undefined) return '';
    if (!(input instanceof ArrayBuffer) && !ArrayBuffer.isView(input))
      throw new TypeError('TextDecoder.decode(): an ArrayBuffer, a typed array or a DataView');
    return web('decode', this.#label, this.#fatal, this.#ignoreBOM, ownBytes(input));
  }
}

function atob(data) {
  needs(1, arguments.length, 'atob');
  return domResult(web('atob', text(data)));
}
function btoa(data) {
  needs(1, arguments.length, 'btoa');
  return domResult(web('btoa', text(data)));
}
function structuredClone(value, options = undefined) {
  needs(1, arguments.length, 'structuredClone');
  const transfer = options?.transfer;
  if (transfer !== undefined && [...transfer].length > 0)
    throw new DOMException('structuredClone(): transfer is not supported in a scenario', 'DataCloneError');
  try {
    return web('clone', value);
  } catch (error) {
    throw new DOMException(text(error?.message), 'DataCloneError');
  }
}

const INTEGER_ARRAYS = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']);
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const getRandomValues = (array) => {
  if (!ArrayBuffer.isView(array)) throw new TypeError('crypto.getRandomValues(): an integer typed array');
  if (!INTEGER_ARRAYS.has(typedArrayTag.call(array)))
    throw new DOMException('crypto.getRandomValues(): the array must be an integer typed array', 'TypeMismatchError');
  if (array.byteLength > ${MAX_RANDOM_BYTES})
    throw new DOMException('crypto.getRandomValues(): ' + array.byteLength + ' bytes asked, more than ${MAX_RANDOM_BYTES}', 'QuotaExceededError');
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(web('random', array.byteLength));
  return array;
};
const randomUUID = () => web('uuid');

for (const [name, value] of Object.entries({ DOMException, URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, structuredClone }))
  define(name, value);
define('crypto', Object.freeze({ getRandomValues, randomUUID }));

// barrage's crypto helper: k6/crypto's names, digests by Node's crypto.
const data = (value, what) => {
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return ownBytes(value);
  throw new TypeError('crypto.' + what + '(): the data and key must be a string, an ArrayBuffer or a typed array');
};
const hash = (algorithm, input, encoding) => web('hash', text(algorithm), data(input, 'hash'), encoding);
const shorthand = (algorithm) => (input, encoding) => hash(algorithm, input, encoding);
return Object.freeze({
  getRandomValues,
  randomUUID,
  randomBytes: (size) => {
    const n = Number(size);
    if (!Number.isSafeInteger(n) || n < 0 || n > ${MAX_RANDOM_BYTES})
      throw new RangeError('crypto.randomBytes(): a size from 0 to ${MAX_RANDOM_BYTES}, not ' + text(size));
    return web('random', n).buffer;
  },
  hash,
  hmac: (algorithm, key, input, encoding) =>
    web('hmac', text(algorithm), data(key, 'hmac'), data(input, 'hmac'), encoding),
  md5: shorthand('md5'),
  sha1: shorthand('sha1'),
  sha256: shorthand('sha256'),
  sha384: shorthand('sha384'),
  sha512: shorthand('sha512'),
  sha512_224: shorthand('sha512_224'),
  sha512_256: shorthand('sha512_256'),
});
})()`;
