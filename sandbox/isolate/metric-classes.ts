/**
 * A scenario's metric classes (`import { Trend, Counter, Rate, Gauge } from 'barrage'`), in both
 * contexts that run a scenario's top level: the options reader (options-reader.ts), which records
 * the declarations for validation, and each virtual user's (bootstrap.ts), which adds the samples.
 * Each gives its hooks to metricClasses():
 *   declared(name, kind, unit)    a declaration passed the checks below (may throw); unit is ms
 *                                 for a Trend made with isTime, else none
 *   add(name, kind, value, tags)  a sample: a finite number (a rate's 1 or 0)
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
} from '../../model/metrics/metric-registry.js';
import { stringify, textOf } from './intrinsics.js';

/** A custom metric's kind. */
export type CustomKind = 'trend' | 'counter' | 'rate' | 'gauge';

/** What the context does with declarations and samples (see the file comment). */
export interface MetricHooks {
  readonly declared: (name: string, kind: CustomKind, unit: string) => void;
  readonly add: (name: string, kind: CustomKind, value: number, tags: unknown) => void;
}

let hooks: MetricHooks;
const builtin = new Set(Object.keys(BUILTIN_METRICS));
const kinds = new Map<string, CustomKind>();

const declare = (type: string, kind: CustomKind, name: unknown, unit = 'none'): string => {
  const text = textOf(name);
  const call = 'new ' + type + '(' + stringify(text) + '): ';
  if (!CUSTOM_METRIC_NAME.test(text))
    throw new TypeError(
      call + 'a metric name is a letter or _, then up to 127 letters, digits or _',
    );
  if (builtin.has(text))
    throw new TypeError(call + text + ' is a built-in metric; choose another name');
  const known = kinds.get(text);
  if (known !== undefined && known !== kind)
    throw new TypeError(
      call + text + ' is already declared as a ' + known + ' (one type per name)',
    );
  hooks.declared(text, kind, unit);
  kinds.set(text, kind);
  return text;
};

const number = (type: string, value: unknown): number => {
  const n = typeof value === 'boolean' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new TypeError(type + '.add(' + String(value) + '): the value must be a finite number');
  return n;
};

class Trend {
  readonly isTime: boolean;
  readonly #name: string;
  constructor(name: unknown, isTime: unknown = false) {
    this.isTime = Boolean(isTime);
    this.#name = declare('Trend', 'trend', name, this.isTime ? 'ms' : 'none');
    Object.freeze(this);
  }
  get name(): string {
    return this.#name;
  }
  add(value: unknown, tags?: unknown): void {
    const n = number('Trend', value);
    if (n < 0 || n > MAX_TREND_VALUE)
      throw new RangeError(
        `Trend.add(${n}): a trend value must be from 0 to ${MAX_TREND_VALUE} (${this.#name})`,
      );
    hooks.add(this.#name, 'trend', n, tags);
  }
}

class Counter {
  readonly #name: string;
  constructor(name: unknown) {
    this.#name = declare('Counter', 'counter', name);
    Object.freeze(this);
  }
  get name(): string {
    return this.#name;
  }
  add(value: unknown, tags?: unknown): void {
    hooks.add(this.#name, 'counter', number('Counter', value), tags);
  }
}

class Rate {
  readonly #name: string;
  constructor(name: unknown) {
    this.#name = declare('Rate', 'rate', name);
    Object.freeze(this);
  }
  get name(): string {
    return this.#name;
  }
  add(value: unknown, tags?: unknown): void {
    hooks.add(this.#name, 'rate', value ? 1 : 0, tags);
  }
}

class Gauge {
  readonly #name: string;
  constructor(name: unknown) {
    this.#name = declare('Gauge', 'gauge', name);
    Object.freeze(this);
  }
  get name(): string {
    return this.#name;
  }
  add(value: unknown, tags?: unknown): void {
    hooks.add(this.#name, 'gauge', number('Gauge', value), tags);
  }
}

/** The classes, declaring and adding through `given`. */
export function metricClasses(given: MetricHooks) {
  hooks = given;
  return Object.freeze({ Trend, Counter, Rate, Gauge });
}
