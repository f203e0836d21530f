/**
 * The sandbox's `data` API (docs/scenarios.md, "Shared data"), as source for a virtual user's
 * context (bootstrap-source.ts). The records of every data file are in the isolate once: the
 * hub's context holds a Uint8Array and a Uint32Array per file over the plan's SharedArrayBuffers
 * (model/plan/shared-data.ts), and each virtual user's bootstrap receives them as a closure argument
 * and keeps them in closures, so user code never holds an object of the hub's realm (from which it
 * could climb to the hub's globals). Everything those closures call was taken before the
 * scenario's code ran (Reflect.apply rather than fn.apply, which a scenario could replace).
 *
 * data.json(name) and data.csv(name) — at the top level only, as k6's SharedArray — return a
 * read-only array-like: a Proxy whose index reads decode one record, every time, from its ASCII
 * JSON text (String.fromCharCode over its bytes, then JSON.parse, which reads the \u escapes);
 * `length`; and the read-only methods of arrays (at, forEach, map, filter, find, slice,
 * iteration…), Array.prototype's own, which work on any array-like. A CSV record is an object of
 * the header's fields. Reading a record at the top level throws, as the options reader does.
 *
 * Expects in scope: `sharedTables` (the hub's [[key, fields, count, bytes, ends], …], key being
 * kind + ':' + name), `initializing`, `parse` and `stringify`; defines `sharedData`.
 */
import { READ_AT_TOP_LEVEL } from '../../model/plan/shared-data.js';

/** Code units turned into a string per call of String.fromCharCode (its arguments are bounded). */
const CHUNK = 8192;

/** The API's source (see the file comment). */
export const SHARED_DATA_SOURCE = `
const sharedData = (() => {
  const apply = Reflect.apply;
  const reflectGet = Reflect.get;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const NativeProxy = Proxy;
  const fromCharCode = String.fromCharCode;
  const tables = new Map();
  for (let i = 0; i < sharedTables.length; i++) {
    const t = sharedTables[i];
    const fields = [];
    for (let f = 0; f < t[1].length; f++) fields.push(t[1][f]);
    tables.set(t[0], { fields, count: t[2], bytes: t[3], ends: t[4] });
  }
  const textOf = (bytes, start, end) => {
    let text = '';
    for (let at = start; at < end; at += ${CHUNK})
      text += apply(fromCharCode, null, bytes.subarray(at, end - at > ${CHUNK} ? at + ${CHUNK} : end));
    return text;
  };
  const csvRecord = (fields, values) => {
    const record = {};
    for (let f = 0; f < fields.length; f++) {
      if (fields[f] === '__proto__')
        defineProperty(record, fields[f], { __proto__: null, value: values[f], writable: true, enumerable: true, configurable: true });
      else record[fields[f]] = values[f];
    }
    return record;
  };
  const AP = Array.prototype;
  const methods = create(null);
  for (const name of ['at', 'forEach', 'map', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every', 'reduce', 'slice', 'includes', 'indexOf', 'join', 'keys', 'values', 'entries'])
    methods[name] = AP[name];
  methods[Symbol.iterator] = AP.values;
  freeze(methods);
  const refuse = () => false;
  const open = (kind) => (name) => {
    if (typeof name !== 'string')
      throw new TypeError('data.' + kind + "(): the data file's name, a string relative to the scenario's folder");
    if (!initializing)
      throw new Error('data.' + kind + '(' + stringify(name) + '): a data file is opened at the top level of the scenario, not inside an iteration, setup() or a function they call (as k6\\'s SharedArray)');
    const table = tables.get(kind + ':' + name);
    if (table === undefined)
      throw new Error('data.' + kind + '(' + stringify(name) + '): not opened when the scenario was validated (give it the same name every time)');
    const { fields, count, bytes, ends } = table;
    const index = (key) => {
      if (typeof key !== 'string') return -1;
      const n = +key;
      return (n >>> 0) === n && n < count && '' + n === key ? n : -1;
    };
    const record = (i) => {
      if (initializing) throw new Error('data.' + kind + '(' + stringify(name) + '): ' + ${JSON.stringify(READ_AT_TOP_LEVEL)});
      const value = parse(textOf(bytes, i === 0 ? 0 : ends[i - 1], ends[i]));
      return kind === 'csv' ? csvRecord(fields, value) : value;
    };
    return new NativeProxy(create(methods), {
      get: (target, key, receiver) => {
        const i = index(key);
        if (i !== -1) return record(i);
        if (key === 'length') return count;
        return reflectGet(target, key, receiver);
      },
      has: (target, key) => index(key) !== -1 || key === 'length' || key in target,
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      preventExtensions: refuse,
    });
  };
  return freeze({ json: open('json'), csv: open('csv') });
})();
`;
