/**
 * Durations as users write them (DESIGN.md §4: `duration: 1m30s`, `timeout: 10s`), in milliseconds.
 *
 *   duration := part+
 *   part     := number unit
 *   number   := digit+ ("." digit+)?
 *   unit     := "h" | "m" | "s" | "ms"
 *
 * Rules beyond the BNF: each unit at most once, in descending order (h, m, s, ms); no spaces or
 * signs; the total must be a whole number of milliseconds ("1.0005s" is refused rather than
 * rounded: a silent rounding would hide a typo) and at most one year. Parts do not carry: "1m90s"
 * is 150000 ms, as in Go's time.ParseDuration.
 *
 * Scan, then judge: scanPart() reads a number and the run of letters after it without deciding
 * anything, parsePart() then checks the unit, its order and the value. Arithmetic is exact
 * (BigInt over the decimal digits), so "1.001s" is exactly 1001 ms, not 1000.9999999999999.
 */
import { charAt, grammarError, type GrammarError } from './grammar-error.js';
import { err, ok, type Result } from '../result.js';

/** The longest accepted duration: one year of 365 days, in milliseconds. */
export const MAX_DURATION_MS = 365 * 24 * 60 * 60 * 1000;

/** Units from largest to smallest with their size in ms; the order is the required order. */
const UNITS = [
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
] as const;

/** Units as listed to users, smallest first, the way people read them. */
const ALLOWED_UNITS: readonly string[] = ['ms', 's', 'm', 'h'];

/** Words people write for a unit, mapped to the unit to write instead. */
const UNIT_HINTS: Readonly<Record<string, string>> = {
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
  min: 'm',
  mins: 'm',
  minute: 'm',
  minutes: 'm',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
  msec: 'ms',
  msecs: 'ms',
  millis: 'ms',
  millisecond: 'ms',
  milliseconds: 'ms',
};

/** One scanned `number unit`, with the positions of each half. */
interface ScannedPart {
  readonly start: number;
  readonly whole: string;
  readonly fraction: string;
  readonly unit: string;
  readonly unitStart: number;
  readonly end: number;
}

type Fail = (
  part: string,
  position: number,
  problem: string,
  allowed?: readonly string[],
) => GrammarError;

/** Parses a duration such as 250ms, 30s, 1m30s, 2h or 1.5s into milliseconds. */
export function parseDuration(text: string): Result<number, GrammarError> {
  const fail: Fail = (part, position, problem, allowed) =>
    grammarError({
      grammar: 'duration',
      input: text,
      part,
      position,
      problem,
      ...(allowed ? { allowed } : {}),
    });
  if (text.length === 0) {
    return err(fail('duration', 0, 'a duration is required, such as 250ms, 30s, 1m30s or 2h'));
  }
  let total = 0n;
  let lastUnit = -1;
  let position = 0;
  while (position < text.length) {
    const scanned = scanPart(text, position, fail);
    if (!scanned.ok) return scanned;
    const part = scanned.value;
    const unitIndex = UNITS.findIndex(([unit]) => unit === part.unit);
    if (unitIndex < 0) return err(unknownUnit(part, fail));
    if (unitIndex === lastUnit) {
      return err(
        fail('unit', part.unitStart, `the unit "${part.unit}" appears twice; write each unit once`),
      );
    }
    if (unitIndex < lastUnit) {
      const previous = UNITS[lastUnit]?.[0] ?? '';
      return err(
        fail(
          'unit',
          part.unitStart,
          `units must go from largest to smallest (h, m, s, ms), but "${part.unit}" comes after "${previous}"`,
        ),
      );
    }
    lastUnit = unitIndex;
    const size = UNITS[unitIndex]?.[1] ?? 1;
    const milliseconds = exactMilliseconds(part, size);
    if (milliseconds === undefined) {
      const written = text.slice(part.start, part.end);
      return err(fail('number', part.start, `"${written}" is not a whole number of milliseconds`));
    }
    total += milliseconds;
    if (total > BigInt(MAX_DURATION_MS)) {
      return err(fail('duration', 0, 'the duration is longer than the limit of one year, 8760h'));
    }
    position = part.end;
  }
  return ok(Number(total));
}

/** Reads `number unit` at position; fails only when there is no number or no unit at all. */
function scanPart(text: string, start: number, fail: Fail): Result<ScannedPart, GrammarError> {
  const c = charAt(text, start);
  if (!isDigit(c)) return err(notANumber(text, start, fail));
  let i = start;
  while (isDigit(text[i])) i++;
  const whole = text.slice(start, i);
  let fraction = '';
  if (text[i] === '.') {
    const fractionStart = ++i;
    while (isDigit(text[i])) i++;
    fraction = text.slice(fractionStart, i);
    if (fraction === '') {
      return err(
        fail(
          'number',
          fractionStart,
          `a digit is required after the decimal point in "${text.slice(start, i)}"`,
        ),
      );
    }
  }
  const unitStart = i;
  while (i < text.length && /^\p{L}$/u.test(charAt(text, i))) i += charAt(text, i).length;
  const unit = text.slice(unitStart, i);
  if (unit === '') {
    const after = i < text.length ? `, found "${charAt(text, i)}"` : '';
    return err(
      fail(
        'unit',
        unitStart,
        `a unit is required after "${text.slice(start, i)}"${after}`,
        ALLOWED_UNITS,
      ),
    );
  }
  return ok({ start, whole, fraction, unit, unitStart, end: i });
}

/** The error for a character where a number must start: the start of input or after a part. */
function notANumber(text: string, position: number, fail: Fail): GrammarError {
  const c = charAt(text, position);
  if (/^\s$/u.test(c))
    return fail(
      'duration',
      position,
      'spaces are not allowed in a duration; write it as one word, such as 1m30s',
    );
  if (position > 0) {
    return fail(
      'trailing',
      position,
      `unexpected "${text.slice(position)}" after "${text.slice(0, position)}"`,
    );
  }
  if (c === '-') return fail('number', position, 'a duration cannot be negative');
  if (c === '.')
    return fail(
      'number',
      position,
      `a digit is required before the decimal point; write "0${text}"`,
    );
  return fail('number', position, `a duration must start with a number, found "${c}"`);
}

/** The error for a unit that is not h, m, s or ms, with the likely intended unit when known. */
function unknownUnit(part: ScannedPart, fail: Fail): GrammarError {
  const lower = part.unit.toLowerCase();
  let hint = '';
  if (UNITS.some(([unit]) => unit === lower)) hint = `; units are lower case: write "${lower}"`;
  else if (UNIT_HINTS[lower] !== undefined) hint = `; write "${UNIT_HINTS[lower]}"`;
  else if (/^(d|days?|w|weeks?)$/.test(lower))
    hint = '; days are not a unit: write hours, such as 24h';
  else if (/^(us|µs|μs|ns)$/.test(lower)) hint = '; the smallest unit is ms';
  return fail('unit', part.unitStart, `unknown unit "${part.unit}"${hint}`, ALLOWED_UNITS);
}

/**
 * (whole.fraction) × size in ms, exactly; undefined when that is not a whole number. Digits are
 * trimmed first so BigInt never sees a huge string: leading zeros of the whole part and trailing
 * zeros of the fraction change nothing; more than 17 whole digits is far beyond one year anyway
 * (capped at 10^17, still over the limit); a fraction with more than 6 significant digits cannot
 * give whole ms, since the largest unit, 3600000 = 2^7·3^2·5^5, absorbs at most 10^5 (5 digits).
 */
function exactMilliseconds(part: ScannedPart, size: number): bigint | undefined {
  const whole = part.whole.replace(/^0+/, '');
  let digits = part.fraction.length;
  // A loop, not /0+$/: that regex is quadratic on a long run of zeros followed by another digit.
  while (digits > 0 && part.fraction[digits - 1] === '0') digits--;
  const fraction = part.fraction.slice(0, digits);
  if (whole.length > 17) return 10n ** 17n;
  if (fraction.length > 6) return undefined;
  const scaled = BigInt(whole + fraction || '0') * BigInt(size);
  const divisor = 10n ** BigInt(fraction.length);
  return scaled % divisor === 0n ? scaled / divisor : undefined;
}

/** True for an ASCII digit; `\d` alone would let other scripts' digits through. */
function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9' && c.length === 1;
}

/**
 * Canonical text of a duration: every non-zero unit from h down to ms, integers only, so that
 * parseDuration(formatDuration(ms)) === ms for every whole ms from 0 to one year:
 * 90000 → "1m30s", 1500 → "1s500ms", 250 → "250ms", 0 → "0s", 172800000 → "48h" (no days).
 * Fractional input is rounded to the nearest ms; negative input gets a leading "-" (display only).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  let rest = Math.round(ms);
  if (rest === 0) return '0s';
  let out = '';
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) out += `${count}${unit}`;
    rest -= count * size;
  }
  return out;
}
