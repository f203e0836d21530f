/**
 * The scenario's `console` in a virtual user's context (bootstrap.ts). V8's own console has no
 * delegate in an isolate, so it printed nothing. Each call formats its arguments here, as Node's
 * console does (printf-style `%s %d %i %f %j %o %O %c` when the first argument is a string;
 * strings as they are, other values inspected: `{ a: 1, b: 'x' }`, nested at most MAX_DEPTH
 * deep, at most MAX_ITEMS entries a level), cut to MAX_CONSOLE_TEXT characters, and posts one LOG
 * record to the hub. The record leaves with the records the host takes after every pump anyway:
 * a console call costs no crossing of its own. The host rate-limits what it prints
 * (runtime/script/console-lines.ts).
 */
import { stringify as toJson, textOf } from './intrinsics.js';

/** Characters of one console call's text; past them it is cut, saying how much was left out. */
export const MAX_CONSOLE_TEXT = 2000;
/** Nesting inspected (deeper objects show as [Object] or [Array]), and entries per level. */
const MAX_DEPTH = 2;
const MAX_ITEMS = 50;

/** The console methods a scenario gets; the others of V8's console stay (they print nothing). */
export const CONSOLE_LEVELS = ['log', 'info', 'debug', 'warn', 'error'] as const;

const objectPrototype = Object.prototype;
const identifier = /^[A-Za-z_$][\w$]*$/;
const quote = (s: string): string =>
  "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
const more = (n: number): string[] => (n > 0 ? [`... ${n} more item${n === 1 ? '' : 's'}`] : []);
const list = (open: string, items: readonly string[], close: string): string =>
  items.length === 0 ? open + close : open + ' ' + items.join(', ') + ' ' + close;

/** A value that is not an object (or null), or undefined when it is one. */
const primitive = (value: unknown, depth: number): string | undefined => {
  switch (typeof value) {
    case 'string':
      return depth === 0
        ? value
        : quote(value.length > MAX_CONSOLE_TEXT ? value.slice(0, MAX_CONSOLE_TEXT) : value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return String(value) + 'n';
    case 'symbol':
      return value.toString();
    case 'function': {
      const name = value.name === '' ? '(anonymous)' : value.name;
      return /^class[\s{]/.test(Function.prototype.toString.call(value))
        ? '[class ' + name + ']'
        : '[Function: ' + name + ']';
    }
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return String(value);
  }
};

/** An object shown in one word (an error, a date…), or undefined. */
const special = (value: object, depth: number): string | undefined => {
  if (value instanceof Error) {
    const text = String(value.name) + ': ' + String(value.message);
    return depth === 0 ? text : '[' + text + ']';
  }
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (value instanceof Promise) return 'Promise {}';
  if (value instanceof ArrayBuffer) return 'ArrayBuffer { byteLength: ' + value.byteLength + ' }';
  return undefined;
};

type Inner = (value: unknown) => string;

const arrayLike = (value: unknown[] | ArrayBufferView, depth: number, inner: Inner): string => {
  const length = (value as ArrayLike<unknown>).length;
  const name = Array.isArray(value) ? '' : value.constructor.name + '(' + length + ') ';
  if (depth > MAX_DEPTH) return Array.isArray(value) ? '[Array]' : '[' + name.trim() + ']';
  const shown = (Array.prototype.slice.call(value, 0, MAX_ITEMS) as unknown[]).map(inner);
  return name + list('[', shown.concat(more(length - MAX_ITEMS)), ']');
};

const collection = (value: Map<unknown, unknown> | Set<unknown>, depth: number, inner: Inner) => {
  const name = (value instanceof Map ? 'Map(' : 'Set(') + value.size + ') ';
  if (depth > MAX_DEPTH) return '[' + name.trim() + ']';
  const shown: string[] = [];
  for (const entry of value) {
    if (shown.length === MAX_ITEMS) break;
    shown.push(
      value instanceof Map
        ? inner((entry as [unknown, unknown])[0]) + ' => ' + inner((entry as [unknown, unknown])[1])
        : inner(entry),
    );
  }
  return name + list('{', shown.concat(more(value.size - MAX_ITEMS)), '}');
};

const plainObject = (value: object, depth: number, seen: readonly unknown[]): string => {
  const nested = seen.concat([value]);
  const inner: Inner = (v) => inspect(v, depth + 1, nested);
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
  const ctor =
    proto === null || proto === objectPrototype ? '' : textOf(proto.constructor?.name ?? '');
  // A value with toJSON (a response, for one) shows what JSON.stringify would give.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  const own: unknown = typeof toJSON === 'function' ? toJSON.call(value) : value;
  if (own !== value && (own === null || typeof own !== 'object'))
    return inspect(own, depth, nested);
  if (depth > MAX_DEPTH) return '[' + (ctor === '' ? 'Object' : ctor) + ']';
  const record = own as Record<string, unknown>;
  const keys = Object.keys(record);
  const shown = keys
    .slice(0, MAX_ITEMS)
    .map((k) => (identifier.test(k) ? k : quote(k)) + ': ' + inner(record[k]));
  const body = list('{', shown.concat(more(keys.length - MAX_ITEMS)), '}');
  return ctor === '' ? body : ctor + ' ' + body;
};

/** A value as Node's util.inspect shows it, within the bounds above. */
const inspect = (value: unknown, depth: number, seen: readonly unknown[]): string => {
  const simple = primitive(value, depth);
  if (simple !== undefined) return simple;
  const object = value as object;
  if (seen.includes(object)) return '[Circular]';
  const word = special(object, depth);
  if (word !== undefined) return word;
  const nested = seen.concat([object]);
  const inner: Inner = (v) => inspect(v, depth + 1, nested);
  if (Array.isArray(object) || ArrayBuffer.isView(object)) return arrayLike(object, depth, inner);
  if (object instanceof Map || object instanceof Set) return collection(object, depth, inner);
  return plainObject(object, depth, seen);
};

const show = (value: unknown): string => inspect(value, 0, []);

const directive = (spec: string, arg: unknown): string => {
  switch (spec) {
    case 's':
      return typeof arg === 'string' ? arg : inspect(arg, 1, []);
    case 'd':
    case 'i': {
      if (typeof arg === 'bigint') return String(arg) + 'n';
      const n = Number(arg);
      return String(spec === 'i' ? Math.trunc(n) : n);
    }
    case 'f':
      return String(Number.parseFloat(arg as string));
    case 'j':
      try {
        return String(toJson(arg));
      } catch {
        return '[Circular]';
      }
    case 'c':
      return '';
    default:
      return show(arg);
  }
};

/** A console call's text: its arguments formatted, cut to MAX_CONSOLE_TEXT. */
export const consoleText = (args: readonly unknown[]): string => {
  let text;
  try {
    let rest = 0;
    const parts = [];
    const first = args[0];
    if (typeof first === 'string' && first.includes('%')) {
      rest = 1;
      parts.push(
        first.replace(/%([sdifjoOc%])/g, (whole, spec: string) => {
          if (spec === '%') return '%';
          if (rest >= args.length) return whole;
          return directive(spec, args[rest++]);
        }),
      );
    }
    for (let i = rest; i < args.length; i++) parts.push(show(args[i]));
    text = parts.join(' ');
  } catch {
    text = '[a value that cannot be printed]';
  }
  return text.length > MAX_CONSOLE_TEXT
    ? `${text.slice(0, MAX_CONSOLE_TEXT)}… (${text.length - MAX_CONSOLE_TEXT} more characters)`
    : text;
};

/** Replaces the console's printing methods: each posts its level and text. */
export function installConsole(post: (level: string, text: string) => void): void {
  const found: unknown = Reflect.get(globalThis, 'console');
  let console = found as Record<string, unknown> | undefined;
  if (console === undefined) Reflect.set(globalThis, 'console', (console = {}));
  for (const level of CONSOLE_LEVELS)
    console[level] = (...args: unknown[]) => {
      post(level, consoleText(args));
    };
}
