/**
 * The scenario's `console`, as source evaluated in each virtual user's context by the bootstrap
 * (bootstrap-source.ts). V8's own console has no delegate in an isolate, so it printed nothing.
 * Each call formats its arguments there, as Node's console does (printf-style `%s %d %i %f %j %o
 * %O %c` when the first argument is a string; strings as they are, other values inspected:
 * `{ a: 1, b: 'x' }`, nested at most MAX_DEPTH deep, at most MAX_ITEMS entries a level), cut to
 * MAX_LINE characters, and posts one LOG record to the hub. The record leaves with the records
 * the host takes after every pump anyway: a console call costs no crossing of its own. The host
 * rate-limits what it prints (console-lines.ts).
 */

/** Characters of one console call's text; past them it is cut, saying how much was left out. */
export const MAX_CONSOLE_TEXT = 2000;
/** Nesting inspected (deeper objects show as [Object] or [Array]), and entries per level. */
const MAX_DEPTH = 2;
const MAX_ITEMS = 50;

/** The console methods a scenario gets; the others of V8's console stay (they print nothing). */
export const CONSOLE_LEVELS = ['log', 'info', 'debug', 'warn', 'error'] as const;

/**
 * Source run by the bootstrap, after `post` and `vuNumber` are bound and before the scenario's
 * code: it replaces the console's printing methods. `logKind` is the LOG record's kind.
 */
export function consoleSource(logKind: number): string {
  return `
const consoleText = (() => {
  const { stringify: toJson } = JSON;
  const objectToString = Object.prototype.toString;
  const identifier = /^[A-Za-z_$][\\w$]*$/;
  const quote = (s) => "'" + s.replace(/\\\\/g, '\\\\\\\\').replace(/'/g, "\\\\'").replace(/\\n/g, '\\\\n') + "'";
  const more = (n) => (n > 0 ? ['... ' + n + ' more item' + (n === 1 ? '' : 's')] : []);
  const list = (open, items, close) =>
    items.length === 0 ? open + close : open + ' ' + items.join(', ') + ' ' + close;
  const inspect = (value, depth, seen) => {
    switch (typeof value) {
      case 'string':
        return depth === 0 ? value : quote(value.length > ${MAX_CONSOLE_TEXT} ? value.slice(0, ${MAX_CONSOLE_TEXT}) : value);
      case 'number':
        return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint':
        return String(value) + 'n';
      case 'symbol':
        return value.toString();
      case 'function': {
        const name = value.name === '' ? '(anonymous)' : value.name;
        return /^class[\\s{]/.test(Function.prototype.toString.call(value)) ? '[class ' + name + ']' : '[Function: ' + name + ']';
      }
      case 'object':
        break;
      default:
        return String(value);
    }
    if (value === null) return 'null';
    if (seen.includes(value)) return '[Circular]';
    if (value instanceof Error) {
      const text = String(value.name) + ': ' + String(value.message);
      return depth === 0 ? text : '[' + text + ']';
    }
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (value instanceof Promise) return 'Promise {}';
    if (value instanceof ArrayBuffer) return 'ArrayBuffer { byteLength: ' + value.byteLength + ' }';
    const nested = seen.concat([value]);
    const inner = (v) => inspect(v, depth + 1, nested);
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      const name = Array.isArray(value) ? '' : value.constructor.name + '(' + value.length + ') ';
      if (depth > ${MAX_DEPTH}) return Array.isArray(value) ? '[Array]' : '[' + name.trim() + ']';
      const shown = Array.prototype.slice.call(value, 0, ${MAX_ITEMS}).map(inner);
      return name + list('[', shown.concat(more(value.length - ${MAX_ITEMS})), ']');
    }
    if (value instanceof Map || value instanceof Set) {
      const name = (value instanceof Map ? 'Map(' : 'Set(') + value.size + ') ';
      if (depth > ${MAX_DEPTH}) return '[' + name.trim() + ']';
      const shown = [];
      for (const entry of value) {
        if (shown.length === ${MAX_ITEMS}) break;
        shown.push(value instanceof Map ? inner(entry[0]) + ' => ' + inner(entry[1]) : inner(entry));
      }
      return name + list('{', shown.concat(more(value.size - ${MAX_ITEMS})), '}');
    }
    const proto = Object.getPrototypeOf(value);
    const ctor = proto === null || proto === Object.prototype ? '' : String(proto.constructor?.name ?? '');
    // A value with toJSON (a response, for one) shows what JSON.stringify would give.
    const own = typeof value.toJSON === 'function' ? value.toJSON() : value;
    if (own !== value && (own === null || typeof own !== 'object')) return inspect(own, depth, nested);
    if (depth > ${MAX_DEPTH}) return '[' + (ctor === '' ? 'Object' : ctor) + ']';
    const keys = Object.keys(own);
    const shown = keys.slice(0, ${MAX_ITEMS}).map((k) => (identifier.test(k) ? k : quote(k)) + ': ' + inner(own[k]));
    const body = list('{', shown.concat(more(keys.length - ${MAX_ITEMS})), '}');
    return ctor === '' ? body : ctor + ' ' + body;
  };
  const show = (value) => inspect(value, 0, []);
  const directive = (spec, arg) => {
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
        return String(Number.parseFloat(arg));
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
  return (args) => {
    let text;
    try {
      let rest = 0;
      const parts = [];
      if (typeof args[0] === 'string' && args[0].includes('%')) {
        rest = 1;
        parts.push(args[0].replace(/%([sdifjoOc%])/g, (whole, spec) => {
          if (spec === '%') return '%';
          if (rest >= args.length) return whole;
          return directive(spec, args[rest++]);
        }));
      }
      for (let i = rest; i < args.length; i++) parts.push(show(args[i]));
      text = parts.join(' ');
    } catch {
      text = '[a value that cannot be printed]';
    }
    return text.length > ${MAX_CONSOLE_TEXT}
      ? text.slice(0, ${MAX_CONSOLE_TEXT}) + '… (' + (text.length - ${MAX_CONSOLE_TEXT}) + ' more characters)'
      : text;
  };
})();
if (globalThis.console === undefined) globalThis.console = {};
for (const level of ${JSON.stringify(CONSOLE_LEVELS)})
  globalThis.console[level] = (...args) => {
    post(vuNumber, ${logKind}, level, consoleText(args), 0);
  };
`;
}
