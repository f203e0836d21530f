/**
 * Typed CSV columns (`feeder.types`, docs/configuration.md "Data feeders"): a CSV value is text,
 * and a JSON body's `"{{id}}"` sends text; a column declared `number`, `boolean` or `json` is
 * checked when the file is read and sent as that JSON type, as a JSON feeder's values are. The
 * values are written as JSON text (JSON.stringify of the parsed value) and marked typed.
 */

/** What a CSV column holds. `string` is the default of every column. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'json';

/** A value that is not of its column's type: what was expected, what was given. */
export interface ColumnTypeProblem {
  readonly expected: string;
  readonly actual: string;
}

/** One column's conversion: the JSON text of the value, or why it is not of the type. */
type Convert = (value: string) => string | ColumnTypeProblem;

const BOOLEANS: Readonly<Record<string, string>> = { true: 'true', false: 'false' };

const CONVERT: Readonly<Record<Exclude<ColumnType, 'string'>, Convert>> = {
  number: (value) => {
    const n = value.trim() === '' ? NaN : Number(value);
    return Number.isFinite(n)
      ? JSON.stringify(n)
      : { expected: 'a number', actual: JSON.stringify(value) };
  },
  boolean: (value) =>
    BOOLEANS[value.trim().toLowerCase()] ?? {
      expected: 'true or false',
      actual: JSON.stringify(value),
    },
  json: (value) => {
    try {
      return JSON.stringify(JSON.parse(value));
    } catch {
      return { expected: 'a JSON value', actual: JSON.stringify(value) };
    }
  },
};

/** The typed columns of a header row: their indexes (in the table's fields) and conversions. */
export class ColumnTypes {
  readonly #columns: readonly {
    readonly field: number;
    readonly name: string;
    readonly convert: Convert;
  }[];
  readonly typed: boolean[];

  constructor(fields: readonly string[], types: Readonly<Record<string, ColumnType>>) {
    this.#columns = fields.flatMap((name, field) => {
      const type = Object.hasOwn(types, name) ? types[name] : undefined;
      return type === undefined || type === 'string'
        ? []
        : [{ field, name, convert: CONVERT[type] }];
    });
    this.typed = fields.map((name) => this.#columns.some((c) => c.name === name));
  }

  /** Converts the typed values of `row` in place; a problem names the column. */
  apply(
    row: (string | undefined)[],
  ): (ColumnTypeProblem & { readonly column: string }) | undefined {
    for (const { field, name, convert } of this.#columns) {
      const value = row[field];
      if (value === undefined) continue;
      const converted = convert(value);
      if (typeof converted !== 'string') return { ...converted, column: name };
      row[field] = converted;
    }
    return undefined;
  }
}

/** Declared columns the header does not name (each a problem: a typo would type nothing). */
export function unknownColumns(
  fields: readonly string[],
  types: Readonly<Record<string, ColumnType>>,
): string[] {
  return Object.keys(types).filter((name) => !fields.includes(name));
}
