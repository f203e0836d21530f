import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import t from 'tap';
import type { GrammarError } from '../../dsl/grammar/grammar-error.js';
import { formatDuration, MAX_DURATION_MS, parseDuration } from '../../dsl/grammar/duration.js';
import { parseThreshold } from '../../dsl/grammar/threshold.js';
import { AGGREGATES, BUILTIN_METRICS } from '../../model/metrics/metric-registry.js';
import { parseTemplate } from '../../dsl/grammar/placeholder.js';
import { parseJsonPath } from '../../dsl/grammar/json-path.js';
import { firstJsonValue, importJsonPath } from '../../runtime/vars/extract.js';
import type { Result } from '../../dsl/result.js';
import type { Template, TemplatePart } from '../../model/plan/template.js';
import type { ThresholdOperator } from '../../model/plan/threshold-spec.js';

await importJsonPath();

/** Pieces of the three grammars, so random strings reach past the first character often. */
const TOKENS = [
  '{',
  '}',
  '{{',
  '}}',
  '\\',
  '\\{{',
  '$',
  '$uuid',
  '$env',
  '$randomInt',
  ' ',
  '\t',
  '=',
  ',',
  ':',
  '<',
  '>',
  '<=',
  '==',
  '!',
  '-',
  '.',
  'e',
  'p',
  'p99.9',
  '0',
  '9',
  '1.5',
  'h',
  'm',
  's',
  'ms',
  'endpoint',
  'http_req_duration',
  'checks',
  'rate',
  'x',
  '😀',
  '\ud800',
  '[',
  ']',
  "'",
  '"',
  '..',
  '*',
  '?',
  '@',
  '~',
  '^',
  ';',
  '%@%',
  '#1',
  '`',
  '\\u00e9',
];

/** Arbitrary inputs: ASCII-ish, all of Unicode, lone surrogates, and grammar tokens. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
  fc.string({ unit: fc.constantFrom(...TOKENS), maxLength: 30 }),
);

/** Checks that a failure is well formed: a message quoting the grammar, a part, a position in range. */
function wellFormed(
  result: Result<unknown, GrammarError>,
  grammar: string,
  input: string,
): boolean {
  if (result.ok) return true;
  const { message, part, position } = result.error;
  return (
    message.startsWith(`invalid ${grammar} `) &&
    message.includes(`(${part} at character ${position + 1})`) &&
    Number.isInteger(position) &&
    position >= 0 &&
    position <= input.length
  );
}

t.test('parsers never throw, and their errors are well formed', (t) => {
  fc.assert(
    fc.property(anyText, (text) => {
      return (
        wellFormed(parseDuration(text), 'duration', text) &&
        wellFormed(parseThreshold(text), 'threshold', text) &&
        wellFormed(parseTemplate(text), 'template', text) &&
        wellFormed(parseJsonPath(text), 'JSONPath', text) &&
        wellFormed(parseJsonPath(`$${text}`), 'JSONPath', `$${text}`)
      );
    }),
    { numRuns: 3000 },
  );
  t.pass('no input threw');
  t.end();
});

t.test('formatDuration and parseDuration round trip every whole ms up to one year', (t) => {
  const ms = fc.oneof(
    fc.integer({ min: 0, max: MAX_DURATION_MS }),
    fc.constantFrom(0, 1, 999, 1000, 59_999, 60_000, 3_600_000, MAX_DURATION_MS),
  );
  fc.assert(
    fc.property(ms, (value) => {
      const parsed = parseDuration(formatDuration(value));
      return parsed.ok && parsed.value === value;
    }),
  );
  t.pass('round trip holds');
  t.end();
});

t.test('a duration written unit by unit parses to the sum of its parts', (t) => {
  const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
  const parts = fc
    .record(
      {
        h: fc.integer({ min: 0, max: 8000 }),
        m: fc.integer({ min: 0, max: 999 }),
        s: fc.integer({ min: 0, max: 999 }),
        ms: fc.integer({ min: 0, max: 999 }),
      },
      { requiredKeys: [] },
    )
    .filter((record) => Object.keys(record).length > 0);
  fc.assert(
    fc.property(parts, (record) => {
      let text = '';
      let total = 0;
      for (const unit of ['h', 'm', 's', 'ms'] as const) {
        const count = record[unit];
        if (count === undefined) continue;
        text += `${count}${unit}`;
        total += count * UNIT_MS[unit];
      }
      const parsed = parseDuration(text);
      return parsed.ok && parsed.value === total;
    }),
  );
  t.pass('sums hold');
  t.end();
});

const OPERATORS: readonly ThresholdOperator[] = ['<', '<=', '>', '>=', '=='];
const space = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 });

/** A metric with an aggregate it supports, and the percentile that aggregate stands for. */
const metricAndAggregate = fc.constantFrom(...Object.keys(BUILTIN_METRICS)).chain((metric) => {
  const info = BUILTIN_METRICS[metric as keyof typeof BUILTIN_METRICS];
  const own: readonly string[] = 'aggregates' in info ? info.aggregates : AGGREGATES[info.kind];
  const named = fc.constantFrom(...own).map((aggregate) => {
    const n = /^p(\d+)$/.exec(aggregate);
    return { metric, aggregate, percentile: n === null ? undefined : Number(n[1]) };
  });
  if (info.kind !== 'trend') return named;
  const pNN = fc.oneof(
    fc.integer({ min: 1, max: 100 }).map(String),
    fc
      .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 999 }))
      .map(([a, b]) => `${a}.${b}`),
  );
  return fc.oneof(
    named,
    pNN.map((n) => ({ metric, aggregate: `p${n}`, percentile: Number(n) })),
  );
});

/** A tag value: anything non-empty without "}", "," or "=". */
const tagValue = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 12 })
  .filter((v) => v !== '' && !/[},="]/.test(v));

t.test('generated threshold expressions parse back to their parts', (t) => {
  const expression = fc.record({
    target: metricAndAggregate,
    endpoint: fc.option(tagValue, { nil: undefined }),
    operator: fc.constantFrom(...OPERATORS),
    expected: fc.double({ noNaN: true, noDefaultInfinity: true }),
    spaces: fc.tuple(space, space, space, space),
  });
  fc.assert(
    fc.property(expression, ({ target, endpoint, operator, expected, spaces }) => {
      const { metric, aggregate, percentile } = target;
      const own: readonly string[] = BUILTIN_METRICS[metric as keyof typeof BUILTIN_METRICS].tags;
      const tagged = endpoint !== undefined && own.includes('endpoint');
      const [lead, beforeOp, afterOp, tail] = spaces;
      const tags = tagged ? `{endpoint=${endpoint}}` : '';
      const text = `${lead}${metric}${tags}:${aggregate}${beforeOp}${operator}${afterOp}${String(expected)}${tail}`;
      const parsed = parseThreshold(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const spec = parsed.value;
      return (
        spec.expression === text &&
        spec.metric === metric &&
        JSON.stringify(spec.tags) === JSON.stringify(tagged ? { endpoint } : {}) &&
        spec.aggregate === aggregate &&
        spec.percentile === percentile &&
        spec.operator === operator &&
        Object.is(spec.expected, Number(String(expected)))
      );
    }),
  );
  t.pass('parts survive');
  t.end();
});

/** k6's spelling of a barrage metric or aggregate, where k6 spells it differently. */
function k6Spelling(name: string): fc.Arbitrary<string> {
  const pNN = /^p(\d+(?:\.\d+)?)$/.exec(name);
  if (pNN === null) return fc.constant(name);
  return fc.constantFrom(name, `p(${pNN[1]!})`, ...(name === 'p50' ? ['med'] : []));
}

t.test('k6 spellings parse to the barrage spelling, noted as aliases', (t) => {
  const expression = metricAndAggregate.chain((target) =>
    fc.record({
      target: fc.constant(target),
      metric: k6Spelling(target.metric),
      aggregate: k6Spelling(target.aggregate),
      operator: fc.constantFrom(...OPERATORS),
      spaces: fc.tuple(space, space),
    }),
  );
  fc.assert(
    fc.property(expression, ({ target, metric, aggregate, operator, spaces }) => {
      const [beforeOp, afterOp] = spaces;
      const rest = `${beforeOp}${operator}${afterOp}1`;
      const k6 = parseThreshold(`${metric}:${aggregate}${rest}`);
      const ours = parseThreshold(`${target.metric}:${target.aggregate}${rest}`);
      if (!k6.ok) throw new Error(k6.error.message);
      if (!ours.ok) throw new Error(ours.error.message);
      const { aliases, ...spec } = k6.value;
      const expected = [
        ...(metric === target.metric ? [] : [{ written: metric, as: target.metric }]),
        ...(aggregate === target.aggregate ? [] : [{ written: aggregate, as: target.aggregate }]),
      ];
      return (
        JSON.stringify(spec) === JSON.stringify(ours.value) &&
        JSON.stringify(aliases ?? []) === JSON.stringify(expected)
      );
    }),
  );
  t.pass('k6 spellings read as ours');
  t.end();
});

const varName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,10}$/);
const envName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
const bounds = fc
  .tuple(fc.maxSafeInteger(), fc.maxSafeInteger())
  .map(([a, b]): readonly [number, number] => (a <= b ? [a, b] : [b, a]));

/** A placeholder part of a Template. */
const placeholder: fc.Arbitrary<Exclude<TemplatePart, string>> = fc.oneof(
  varName.map((name) => ({ var: name })),
  varName.map((name) => ({ var: name, encoding: 'raw' as const })),
  fc.constant({ fn: 'uuid' as const }),
  fc.constant({ fn: 'timestamp' as const }),
  bounds.map(([min, max]) => ({ fn: 'randomInt' as const, min, max })),
  envName.map((name) => ({ fn: 'env' as const, name })),
);

/** Literal text, biased toward the characters the grammar treats specially. */
const literal = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.string({ unit: 'binary', minLength: 1 }),
  fc.string({
    unit: fc.constantFrom('{', '}', '{{', '}}', '\\', '\\{{', '$', ' ', 'a'),
    minLength: 1,
    maxLength: 8,
  }),
);

/** Writes a placeholder with random inner spacing. */
function writePlaceholder(
  part: Exclude<TemplatePart, string>,
  pad: readonly [string, string, string],
): string {
  const [before, between, after] = pad;
  const sep = between === '' ? ' ' : between;
  let body: string;
  if ('var' in part) body = part.encoding === 'raw' ? `$raw${sep}${part.var}` : part.var;
  else if (part.fn === 'randomInt') body = `$randomInt${sep}${part.min}${sep}${part.max}`;
  else if (part.fn === 'env') body = `$env${sep}${part.name}`;
  else body = `$${part.fn}`;
  return `{{${before}${body}${after}}}`;
}

/** Merges adjacent literal parts, as the parser does. */
function merge(parts: readonly TemplatePart[]): Template {
  const out: TemplatePart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (typeof part === 'string' && typeof last === 'string') out[out.length - 1] = last + part;
    else out.push(part);
  }
  return out;
}

t.test('templates built from random parts parse back to the same parts', (t) => {
  const parts = fc
    .array(fc.oneof(literal, placeholder), { maxLength: 8 })
    .map(merge)
    // A literal ending in "\" or "\{" right before a placeholder cannot be written (placeholder.ts).
    .filter((merged) =>
      merged.every(
        (part, i) =>
          typeof part !== 'string' || !/\\\{?$/.test(part) || typeof merged[i + 1] !== 'object',
      ),
    );
  const pads = fc.array(fc.tuple(space, space, space), { minLength: 8, maxLength: 8 });
  fc.assert(
    fc.property(parts, pads, (template, padding) => {
      const text = template
        .map((part, i) =>
          typeof part === 'string'
            ? part.replaceAll('{{', '\\{{')
            : writePlaceholder(part, padding[i] ?? ['', '', '']),
        )
        .join('');
      const parsed = parseTemplate(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return JSON.stringify(parsed.value) === JSON.stringify(template);
    }),
  );
  t.pass('parts survive');
  t.end();
});

/** Key characters that jsonpath-plus's tokenizer or selectors give a meaning to, and plain ones. */
const KEY_CHARS = [...'ab0.*$@~^;,[]\'"\\`#%:()?- \n\t☺𝄞&|'];
const key = fc.string({ unit: fc.constantFrom(...KEY_CHARS), maxLength: 6 });

/** A key as an RFC 9535 single-quoted name. */
const quoted = (name: string): string =>
  `'${name.replace(/[\\']/g, '\\$&').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}'`;

t.test('an accepted JSONPath name reads its key, alone, listed, mixed or under ..', (t) => {
  let accepted = 0;
  fc.assert(
    fc.property(key, key, (a, b) => {
      fc.pre(a !== b);
      // Numbers only, so that no name reaches a string or an array (where jsonpath-plus reads
      // `length` and digit names, a documented difference from RFC 9535).
      const doc = { [a]: { [b]: 1, x: 2 }, [b]: 3 };
      const cases: [string, unknown][] = [
        [`$[${quoted(a)}]`, doc[a]],
        [`$[${quoted(a)}][${quoted(b)}]`, 1],
        [`$[${quoted(a)},${quoted(b)}]`, doc[a]],
        [`$[0,${quoted(b)}]`, 3],
        [`$[${quoted(b)},0]`, 3],
        [`$..[${quoted(b)}]`, 3],
        [`$[*][${quoted(b)}]`, 1],
      ];
      return cases.every(([path, expected]) => {
        const parsed = parseJsonPath(path);
        if (!parsed.ok)
          return /cannot read the name|as a function or script/.test(parsed.error.message);
        accepted++;
        return isDeepStrictEqual(firstJsonValue(doc, parsed.value), expected);
      });
    }),
    { numRuns: 3000 },
  );
  t.ok(accepted > 10_000, `${accepted} accepted paths read the right key`);
  t.end();
});

t.test('any tag value, quoted with its " and \\ escaped, parses back to itself', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }), (value) => {
      const quoted = `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
      const parsed = parseThreshold(`http_req_failed{endpoint=${quoted},team=a}:rate < 1`);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value.tags.endpoint === value && parsed.value.tags.team === 'a';
    }),
  );
  t.end();
});
