/**
 * Sets of HTTP statuses, as `expect: { status: … }` and a `status` check write them: a list of
 * entries, each a status, a class or a range, read here once into inclusive ranges. It lives with
 * the Plan since both sides read it: validation (dsl/schema/check-schema.ts) and a TypeScript
 * scenario's `expect` option, read at run time (runtime/script/script-ops.ts).
 *
 *   entry  := status | class | range
 *   status := an integer from 100 to 599 (a number, or its digits as text)
 *   class  := [1-5] "xx"                    (any case: "2xx", "4XX")
 *   range  := status "-" status             (text; the first at most the second: "200-299")
 */

/** Statuses from `min` to `max`, both included. */
export interface StatusRange {
  readonly min: number;
  readonly max: number;
}

/** Statuses as inclusive ranges. */
export type StatusSet = readonly StatusRange[];

/** What an entry of a status list may be, for error messages. */
export const STATUS_ENTRY =
  'a status from 100 to 599, a class such as 2xx, or a range such as 200-299';

const STATUS = /^\d{3}$/;
const CLASS = /^([1-5])xx$/i;
const RANGE = /^(\d{3})\s*-\s*(\d{3})$/;

/** One entry as a range, or why it is not one (a sentence to follow "expected …, got …"). */
export function parseStatusEntry(entry: unknown): StatusRange | string {
  if (typeof entry === 'number') {
    return Number.isInteger(entry) && entry >= 100 && entry <= 599
      ? { min: entry, max: entry }
      : STATUS_ENTRY;
  }
  if (typeof entry !== 'string') return STATUS_ENTRY;
  const text = entry.trim();
  if (STATUS.test(text)) return parseStatusEntry(Number(text));
  const cls = CLASS.exec(text);
  if (cls !== null) return { min: Number(cls[1]) * 100, max: Number(cls[1]) * 100 + 99 };
  const range = RANGE.exec(text);
  if (range === null) return STATUS_ENTRY;
  const min = Number(range[1]);
  const max = Number(range[2]);
  if (min < 100 || max > 599) return STATUS_ENTRY;
  if (min > max) return `a range whose first status is at most its second (${STATUS_ENTRY})`;
  return { min, max };
}

/** True when `status` is in the set. */
export function inStatusSet(set: StatusSet, status: number): boolean {
  for (const range of set) if (status >= range.min && status <= range.max) return true;
  return false;
}

/** The set as the user would write it: "200, 404, 2xx, 200-204". */
export function showStatusSet(set: StatusSet): string {
  return set
    .map(({ min, max }) => {
      if (min === max) return String(min);
      if (min % 100 === 0 && max === min + 99) return `${min / 100}xx`;
      return `${min}-${max}`;
    })
    .join(', ');
}
