/**
 * The source of a scenario's metric classes (`import { Trend, Counter, Rate, Gauge } from
 * 'barrage'`), evaluated in both contexts that run a scenario's top level: the options reader
 * (dsl/script/options-entry.ts), which records the declarations for validation, and each virtual
 * user's (runtime/script/bootstrap-source.ts), which adds the samples. Plain data beside the
 * plan's types, as both rooms read it (like removed-globals.ts).
 *
 * The source expects two functions in scope and defines `metricClasses`:
 *   metricDeclared(name, kind, unit)    a declaration passed the checks below (may throw); unit
 *                                       is ms for a Trend made with isTime, else none
 *   metricAdd(name, kind, value, tags)  a sample: a finite number (a rate's 1 or 0)
 * Checks, as k6's: the name is a letter or _, then up to 127 letters, digits or _; not a built-in
 * metric's; one kind per name (declaring it again with the same kind gives the same metric).
 * `add(value, tags)`: Trend (isTime: the unit is ms) and Counter and Gauge take a number (a
 * boolean counts as 1 or 0); a trend's value must be from 0 to MAX_TREND_VALUE; Rate counts
 * truthy values as true.
 */
import {
  BUILTIN_METRICS,
  CUSTOM_METRIC_NAME,
  MAX_TREND_VALUE,
} from '../model/metrics/metric-registry.js';

/** The classes' source (see the file comment). */
export const METRIC_CLASSES_SOURCE = `
const metricClasses = (() => {
  const builtin = new Set(${JSON.stringify(Object.keys(BUILTIN_METRICS))});
  const namePattern = ${CUSTOM_METRIC_NAME.toString()};
  const kinds = new Map();
  const declare = (type, kind, name, unit = 'none') => {
    const text = typeof name === 'string' ? name : String(name);
    if (!namePattern.test(text))
      throw new TypeError('new ' + type + '(' + JSON.stringify(text) + '): a metric name is a letter or _, then up to 127 letters, digits or _');
    if (builtin.has(text))
      throw new TypeError('new ' + type + '(' + JSON.stringify(text) + '): ' + text + ' is a built-in metric; choose another name');
    const known = kinds.get(text);
    if (known !== undefined && known !== kind)
      throw new TypeError('new ' + type + '(' + JSON.stringify(text) + '): ' + text + ' is already declared as a ' + known + ' (one type per name)');
    metricDeclared(text, kind, unit);
    kinds.set(text, kind);
    return text;
  };
  const number = (type, value) => {
    const n = typeof value === 'boolean' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n))
      throw new TypeError(type + '.add(' + String(value) + '): the value must be a finite number');
    return n;
  };
  class Trend {
    #name;
    constructor(name, isTime = false) {
      this.isTime = Boolean(isTime);
      this.#name = declare('Trend', 'trend', name, this.isTime ? 'ms' : 'none');
      Object.freeze(this);
    }
    get name() { return this.#name; }
    add(value, tags) {
      const n = number('Trend', value);
      if (n < 0 || n > ${MAX_TREND_VALUE})
        throw new RangeError('Trend.add(' + n + '): a trend value must be from 0 to ${MAX_TREND_VALUE} (' + this.#name + ')');
      metricAdd(this.#name, 'trend', n, tags);
    }
  }
  class Counter {
    #name;
    constructor(name) {
      this.#name = declare('Counter', 'counter', name);
      Object.freeze(this);
    }
    get name() { return this.#name; }
    add(value, tags) {
      metricAdd(this.#name, 'counter', number('Counter', value), tags);
    }
  }
  class Rate {
    #name;
    constructor(name) {
      this.#name = declare('Rate', 'rate', name);
      Object.freeze(this);
    }
    get name() { return this.#name; }
    add(value, tags) {
      metricAdd(this.#name, 'rate', value ? 1 : 0, tags);
    }
  }
  class Gauge {
    #name;
    constructor(name) {
      this.#name = declare('Gauge', 'gauge', name);
      Object.freeze(this);
    }
    get name() { return this.#name; }
    add(value, tags) {
      metricAdd(this.#name, 'gauge', number('Gauge', value), tags);
    }
  }
  return Object.freeze({ Trend, Counter, Rate, Gauge });
})();
`;
