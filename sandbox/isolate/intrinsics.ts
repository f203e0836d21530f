/**
 * Built-ins the isolate's code uses, taken when its modules load, before the scenario's code runs:
 * what the scenario does to its JSON or RegExp globals is its own.
 */
export const { stringify, parse } = JSON;
export const NativeRegExp = RegExp;

/** A value as text, as String() makes it (a string as it is). */
export const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : String(value);
