/**
 * The web's URL and URLSearchParams (sandbox/web-globals.ts). A query's pairs are kept here;
 * parsing and serializing are the host's. A URL's searchParams tells its URL of every change
 * (onChange), and the URL replaces its pairs when its query changes. A URL is its parts as the
 * host's WHATWG URL gives them (web-call.ts's UrlParts); a setter hands the href and the new value
 * to the host and takes the parts it answers.
 */
import { needs, usv } from './dom-exception.js';
import { web, type UrlParts } from './web-call.js';

type Pair = [string, string];

let attach: (params: URLSearchParams, onChange: (query: string) => void) => void;
let reparse: (params: URLSearchParams, search: string) => void;

/** Whether a value may be iterated. */
const iterable = (value: unknown): value is Iterable<unknown> =>
  value !== null &&
  (typeof value === 'object' || typeof value === 'function') &&
  typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';

export class URLSearchParams {
  #list: Pair[] = [];
  #onChange: ((query: string) => void) | undefined = undefined;
  static {
    attach = (params, onChange) => {
      params.#onChange = onChange;
    };
    reparse = (params, search) => {
      params.#list = URLSearchParams.#parse(search);
    };
  }
  static #parse(query: string): Pair[] {
    const flat = web('query.parse', query.startsWith('?') ? query.slice(1) : query);
    const list: Pair[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) list.push([flat[i]!, flat[i + 1]!]);
    return list;
  }
  constructor(init: unknown = '') {
    if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
      if (iterable(init)) {
        for (const pair of init) {
          const items = iterable(pair) && typeof pair === 'object' ? [...pair] : undefined;
          if (items?.length !== 2)
            throw new TypeError(
              'URLSearchParams: each pair must be a sequence of exactly two items',
            );
          this.#list.push([usv(items[0]), usv(items[1])]);
        }
      } else
        for (const key of Reflect.ownKeys(init))
          if (typeof key === 'string' && Object.prototype.propertyIsEnumerable.call(init, key))
            this.#list.push([usv(key), usv((init as Record<string, unknown>)[key])]);
    } else this.#list = URLSearchParams.#parse(usv(init));
  }
  #update(): void {
    this.#onChange?.(this.toString());
  }
  get size(): number {
    return this.#list.length;
  }
  append(name: unknown, value: unknown): void {
    needs(2, arguments.length, 'URLSearchParams.append');
    this.#list.push([usv(name), usv(value)]);
    this.#update();
  }
  delete(name: unknown, value?: unknown): void {
    needs(1, arguments.length, 'URLSearchParams.delete');
    const n = usv(name);
    const v = value === undefined ? undefined : usv(value);
    this.#list = this.#list.filter(([k, w]) => k !== n || (v !== undefined && w !== v));
    this.#update();
  }
  get(name: unknown): string | null {
    needs(1, arguments.length, 'URLSearchParams.get');
    const n = usv(name);
    return this.#list.find(([k]) => k === n)?.[1] ?? null;
  }
  getAll(name: unknown): string[] {
    needs(1, arguments.length, 'URLSearchParams.getAll');
    const n = usv(name);
    return this.#list.filter(([k]) => k === n).map(([, v]) => v);
  }
  has(name: unknown, value?: unknown): boolean {
    needs(1, arguments.length, 'URLSearchParams.has');
    const n = usv(name);
    const v = value === undefined ? undefined : usv(value);
    return this.#list.some(([k, w]) => k === n && (v === undefined || w === v));
  }
  set(name: unknown, value: unknown): void {
    needs(2, arguments.length, 'URLSearchParams.set');
    const n = usv(name);
    const at = this.#list.findIndex(([k]) => k === n);
    if (at === -1) this.#list.push([n, usv(value)]);
    else
      this.#list = this.#list
        .filter(([k], i) => i <= at || k !== n)
        .map((pair, i): Pair => (i === at ? [n, usv(value)] : pair));
    this.#update();
  }
  sort(): void {
    // Stable, by UTF-16 code units, as the web sorts.
    this.#list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#update();
  }
  forEach(
    callback: (value: string, name: string, params: URLSearchParams) => void,
    thisArg?: unknown,
  ): void {
    for (let i = 0; i < this.#list.length; i++)
      callback.call(thisArg, this.#list[i]![1], this.#list[i]![0], this);
  }
  *entries(): Generator<Pair> {
    for (let i = 0; i < this.#list.length; i++) yield [this.#list[i]![0], this.#list[i]![1]];
  }
  *keys(): Generator<string> {
    for (let i = 0; i < this.#list.length; i++) yield this.#list[i]![0];
  }
  *values(): Generator<string> {
    for (let i = 0; i < this.#list.length; i++) yield this.#list[i]![1];
  }
  [Symbol.iterator](): Generator<Pair> {
    return this.entries();
  }
  toString(): string {
    return web('query.serialize', this.#list.flat());
  }
  get [Symbol.toStringTag](): string {
    return 'URLSearchParams';
  }
}

/** The index of a part in UrlParts. */
const SEARCH = 9;

export class URL {
  #parts: UrlParts;
  #query: URLSearchParams | undefined = undefined;
  constructor(url: unknown, base?: unknown) {
    needs(1, arguments.length, 'URL');
    this.#parts = base === undefined ? web('url', usv(url)) : web('url', usv(url), usv(base));
  }
  static canParse(url: unknown, base?: unknown): boolean {
    needs(1, arguments.length, 'URL.canParse');
    return base === undefined
      ? web('url.canParse', usv(url))
      : web('url.canParse', usv(url), usv(base));
  }
  static parse(url: unknown, base?: unknown): URL | null {
    needs(1, arguments.length, 'URL.parse');
    return URL.canParse(url, base) ? new URL(url, base) : null;
  }
  #part(index: number): string {
    return this.#parts[index]!;
  }
  #set(part: string, value: unknown): void {
    this.#parts = web('url.set', this.#part(0), part, usv(value));
    if (this.#query !== undefined) reparse(this.#query, this.#part(SEARCH));
  }
  get searchParams(): URLSearchParams {
    if (this.#query === undefined) {
      this.#query = new URLSearchParams(this.#part(SEARCH));
      attach(this.#query, (query) => {
        this.#parts = web('url.set', this.#part(0), 'search', query);
      });
    }
    return this.#query;
  }
  get href(): string {
    return this.#part(0);
  }
  set href(value: unknown) {
    this.#set('href', value);
  }
  get origin(): string {
    return this.#part(1);
  }
  get protocol(): string {
    return this.#part(2);
  }
  set protocol(value: unknown) {
    this.#set('protocol', value);
  }
  get username(): string {
    return this.#part(3);
  }
  set username(value: unknown) {
    this.#set('username', value);
  }
  get password(): string {
    return this.#part(4);
  }
  set password(value: unknown) {
    this.#set('password', value);
  }
  get host(): string {
    return this.#part(5);
  }
  set host(value: unknown) {
    this.#set('host', value);
  }
  get hostname(): string {
    return this.#part(6);
  }
  set hostname(value: unknown) {
    this.#set('hostname', value);
  }
  get port(): string {
    return this.#part(7);
  }
  set port(value: unknown) {
    this.#set('port', value);
  }
  get pathname(): string {
    return this.#part(8);
  }
  set pathname(value: unknown) {
    this.#set('pathname', value);
  }
  get search(): string {
    return this.#part(SEARCH);
  }
  set search(value: unknown) {
    this.#set('search', value);
  }
  get hash(): string {
    return this.#part(10);
  }
  set hash(value: unknown) {
    this.#set('hash', value);
  }
  toString(): string {
    return this.#part(0);
  }
  toJSON(): string {
    return this.#part(0);
  }
  get [Symbol.toStringTag](): string {
    return 'URL';
  }
}
