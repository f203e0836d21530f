/**
 * The sandbox's `data` API (docs/scenarios.md, "Shared data"). The records of every data file are
 * in the isolate once: the hub's context holds a Uint8Array and a Uint32Array per file over the
 * plan's SharedArrayBuffers (model/plan/shared-data.ts, runtime/script/shared-data-tables.ts), and
 * each virtual user's bootstrap receives them as a closure argument and keeps them in closures,
 * so user code never holds an object of the hub's realm (from which it could climb to the hub's
 * globals). Everything those closures call was taken before the scenario's code ran
 * (Reflect.apply rather than fn.apply, which a scenario could replace).
 *
 * data.json(name) and data.csv(name) — at the top level only, as k6's SharedArray — return a
 * read-only array-like: a Proxy whose index reads decode one record, every time, from its ASCII
 * JSON text (String.fromCharCode over its bytes, then JSON.parse, which reads the \u escapes);
 * `length`; and the read-only methods of arrays (at, forEach, map, filter, find, slice,
 * iteration…), Array.prototype's own, which work on any array-like. A CSV record is an object of
 * the header's fields. Reading a record at the top level throws, as the options reader does.
 */
import { READ_AT_TOP_LEVEL } from '../../model/plan/shared-data.js';
import { parse, stringify } from './intrinsics.js';

/** A data file as the hub's views: [key, fields, count, bytes, ends], key being kind:name. */
export type SharedTable = readonly [
  key: string,
  fields: ArrayLike<string>,
  count: number,
  bytes: Uint8Array,
  ends: Uint32Array,
];

interface Table {
  readonly fields: readonly string[];
  readonly count: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

/** Code units turned into a string per call of String.fromCharCode (its arguments are bounded). */
const CHUNK = 8192;

const apply = Reflect.apply;
const reflectGet = Reflect.get;
const defineProperty = Object.defineProperty;
const freeze = Object.freeze;
const create = Object.create;
const NativeProxy = Proxy;
const fromCharCode = String.fromCharCode;

const textOf = (bytes: Uint8Array, start: number, end: number): string => {
  let text = '';
  for (let at = start; at < end; at += CHUNK)
    text += apply(
      fromCharCode,
      null,
      bytes.subarray(at, end - at > CHUNK ? at + CHUNK : end),
    ) as string;
  return text;
};

const csvRecord = (fields: readonly string[], values: readonly unknown[]): object => {
  const record: Record<string, unknown> = {};
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f]!;
    if (field === '__proto__')
      defineProperty(record, field, {
        __proto__: null,
        value: values[f],
        writable: true,
        enumerable: true,
        configurable: true,
      } as PropertyDescriptor);
    else record[field] = values[f];
  }
  return record;
};

const AP = Array.prototype;
const METHODS = [
  'at',
  'forEach',
  'map',
  'filter',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'some',
  'every',
  'reduce',
  'slice',
  'includes',
  'indexOf',
  'join',
  'keys',
  'values',
  'entries',
] as const;
const methods = create(null) as Record<string | symbol, unknown>;
for (const name of METHODS) methods[name] = Reflect.get(AP, name);
methods[Symbol.iterator] = AP.values;
freeze(methods);
const refuse = (): boolean => false;

/** Whether the scenario's top level runs (records may not be read then). */
let initializing: () => boolean;
const tables = new Map<string, Table>();

const opener = (kind: 'json' | 'csv') => (name: unknown) => {
  if (typeof name !== 'string')
    throw new TypeError(
      'data.' + kind + "(): the data file's name, a string relative to the scenario's folder",
    );
  const call = 'data.' + kind + '(' + stringify(name) + '): ';
  if (!initializing())
    throw new Error(
      call +
        "a data file is opened at the top level of the scenario, not inside an iteration, setup() or a function they call (as k6's SharedArray)",
    );
  const table = tables.get(kind + ':' + name);
  if (table === undefined)
    throw new Error(
      call + 'not opened when the scenario was validated (give it the same name every time)',
    );
  return records(kind, call, table);
};

/** The read-only array-like of a table's records. */
const records = (kind: 'json' | 'csv', call: string, table: Table): unknown => {
  const { fields, count, bytes, ends } = table;
  const index = (key: string | symbol): number => {
    if (typeof key !== 'string') return -1;
    const n = +key;
    return n >>> 0 === n && n < count && '' + n === key ? n : -1;
  };
  const record = (i: number): unknown => {
    if (initializing()) throw new Error(call + READ_AT_TOP_LEVEL);
    const value = parse(textOf(bytes, i === 0 ? 0 : ends[i - 1]!, ends[i]!)) as unknown[];
    return kind === 'csv' ? csvRecord(fields, value) : value;
  };
  return new NativeProxy<object>(create(methods) as object, {
    get: (target, key, receiver) => {
      const i = index(key);
      if (i !== -1) return record(i);
      if (key === 'length') return count;
      return reflectGet(target, key, receiver) as unknown;
    },
    has: (target, key) => index(key) !== -1 || key === 'length' || key in target,
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
    preventExtensions: refuse,
  });
};

/** The `data` API over the hub's views; `init` tells whether the top level runs. */
export function sharedData(shared: readonly SharedTable[], init: () => boolean) {
  initializing = init;
  for (let i = 0; i < shared.length; i++) {
    const t = shared[i]!;
    const fields: string[] = [];
    for (let f = 0; f < t[1].length; f++) fields.push(t[1][f]!);
    tables.set(t[0], { fields, count: t[2], bytes: t[3], ends: t[4] });
  }
  return freeze({ json: opener('json'), csv: opener('csv') });
}
