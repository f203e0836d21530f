import t from 'tap';
import { formatDuration, MAX_DURATION_MS, parseDuration } from '../../dsl/grammar/duration.js';

const VALID: readonly (readonly [string, number])[] = [
  ['250ms', 250],
  ['30s', 30_000],
  ['1m30s', 90_000],
  ['2h', 7_200_000],
  ['1.5s', 1_500],
  ['0s', 0],
  ['0ms', 0],
  ['007s', 7_000],
  ['1h2m3s4ms', 3_723_004],
  ['1h30s', 3_630_000],
  ['1m90s', 150_000],
  ['1.001s', 1_001],
  ['1.25m', 75_000],
  ['0.5h', 1_800_000],
  ['1.5000000000s', 1_500],
  ['8760h', MAX_DURATION_MS],
  ['525600m', MAX_DURATION_MS],
];

t.test('valid durations parse to milliseconds', (t) => {
  for (const [text, ms] of VALID) {
    const result = parseDuration(text);
    t.same(result, { ok: true, value: ms }, text);
  }
  t.end();
});

/** text, failing part, 0-based position, a fragment of the message. */
const INVALID: readonly (readonly [string, string, number, string])[] = [
  ['', 'duration', 0, 'a duration is required'],
  ['30', 'unit', 2, 'a unit is required after "30"'],
  ['1.5', 'unit', 3, 'Allowed: ms, s, m, h'],
  ['1m30', 'unit', 4, 'a unit is required after "30"'],
  ['5d', 'unit', 1, 'unknown unit "d"; days are not a unit'],
  ['5sec', 'unit', 1, 'unknown unit "sec"; write "s"'],
  ['5S', 'unit', 1, 'units are lower case: write "s"'],
  ['5MS', 'unit', 1, 'units are lower case: write "ms"'],
  ['5minutes', 'unit', 1, 'write "m"'],
  ['5us', 'unit', 1, 'the smallest unit is ms'],
  ['5mss', 'unit', 1, 'unknown unit "mss"'],
  [' 30s', 'duration', 0, 'spaces are not allowed'],
  ['30s ', 'duration', 3, 'spaces are not allowed'],
  ['1m 30s', 'duration', 2, 'spaces are not allowed'],
  ['30 s', 'unit', 2, 'a unit is required after "30", found " "'],
  ['-5s', 'number', 0, 'cannot be negative'],
  ['+5s', 'number', 0, 'must start with a number, found "+"'],
  ['s', 'number', 0, 'must start with a number'],
  ['.5s', 'number', 0, 'write "0.5s"'],
  ['1.s', 'number', 2, 'a digit is required after the decimal point'],
  ['1s2s', 'unit', 3, 'the unit "s" appears twice'],
  ['1m1m', 'unit', 3, 'the unit "m" appears twice'],
  ['30s1m', 'unit', 4, 'units must go from largest to smallest (h, m, s, ms)'],
  ['1ms1s', 'unit', 4, '"s" comes after "ms"'],
  ['30s!', 'trailing', 3, 'unexpected "!" after "30s"'],
  ['30s-', 'trailing', 3, 'unexpected "-" after "30s"'],
  ['1.2.3s', 'unit', 3, 'found "."'],
  ['1.0005s', 'number', 0, '"1.0005s" is not a whole number of milliseconds'],
  ['0.5ms', 'number', 0, 'not a whole number of milliseconds'],
  ['8760h1ms', 'duration', 0, 'longer than the limit of one year, 8760h'],
  ['8761h', 'duration', 0, 'one year'],
  ['99999999999999999999999999h', 'duration', 0, 'one year'],
  ['٣s', 'number', 0, 'must start with a number'],
];

t.test('invalid durations name the part and say why', (t) => {
  for (const [text, part, position, fragment] of INVALID) {
    const result = parseDuration(text);
    if (result.ok) {
      t.fail(`${JSON.stringify(text)} should not parse`);
      continue;
    }
    t.equal(result.error.part, part, `${JSON.stringify(text)} part`);
    t.equal(result.error.position, position, `${JSON.stringify(text)} position`);
    t.match(result.error.message, fragment, `${JSON.stringify(text)} message`);
    t.match(result.error.message, `invalid duration ${JSON.stringify(text)}`, 'quotes the input');
  }
  t.end();
});

t.test('formatDuration writes the canonical integer form', (t) => {
  const cases: readonly (readonly [number, string])[] = [
    [90_000, '1m30s'],
    [250, '250ms'],
    [0, '0s'],
    [1_500, '1s500ms'],
    [3_723_004, '1h2m3s4ms'],
    [3_600_000, '1h'],
    [172_800_000, '48h'],
    [1_000.4, '1s'],
    [-1_500, '-1s500ms'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ];
  for (const [ms, text] of cases) t.equal(formatDuration(ms), text, String(ms));
  t.end();
});
