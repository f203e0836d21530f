import fc from 'fast-check';
import t from 'tap';
import {
  criterionHolds,
  HAR_FILTER_KEYS,
  parseHarFilter,
  type HarEntryFacts,
} from '../../dsl/grammar/har-filter.js';

/** An API call of a page on shop.test:8080. */
const API: HarEntryFacts = {
  hostname: 'shop.test',
  host: 'shop.test:8080',
  method: 'POST',
  type: 'application/problem+json',
  status: 201,
  path: '/api/cart/items',
  isStatic: false,
};
/** A font from a CDN. */
const FONT: HarEntryFacts = {
  hostname: 'fonts.cdn.test',
  host: 'fonts.cdn.test',
  method: 'GET',
  type: 'font/woff2',
  status: 200,
  path: '/inter.woff2',
  isStatic: true,
};
/** A 204 with no recorded media type. */
const EMPTY: HarEntryFacts = { ...API, method: 'DELETE', type: '', status: 204, path: '/api/x' };

/** True when every criterion of the expression holds for the entry. */
function keeps(expression: string, facts: HarEntryFacts): boolean {
  const parsed = parseHarFilter(expression);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.every((criterion) => criterionHolds(criterion, facts));
}

/** Expression, entry, kept? One row per behaviour of each key. */
const MATCHES: readonly [string, HarEntryFacts, boolean][] = [
  ['host:shop.test', API, true],
  ['host:SHOP.test', API, true],
  ['host:shop.test:8080', API, true],
  ['host:shop.test:9090', API, false],
  ['host:*.test', API, true],
  ['host:*.cdn.test', API, false],
  ['host:*.cdn.test', FONT, true],
  ['host:shop.test|fonts.cdn.test', FONT, true],
  ['host:shop.*:80*', API, true],
  ['method:POST', API, true],
  ['method:post', API, true],
  ['method:GET|PUT', API, false],
  ['method:P*', API, true],
  ['type:application/problem+json', API, true],
  ['type:application/*', API, true],
  ['type:json', API, true],
  ['type:problem+json', API, true],
  ['type:application', API, true],
  ['type:font', FONT, true],
  ['type:woff2', FONT, true],
  ['type:json', FONT, false],
  ['type:jso', API, false],
  ['type:image/*', FONT, false],
  ['type:*', EMPTY, true],
  ['type:json', EMPTY, false],
  ['status:201', API, true],
  ['status:2xx', API, true],
  ['status:2XX', FONT, true],
  ['status:20x', EMPTY, true],
  ['status:3xx', API, false],
  ['status:2*', API, true],
  ['status:200|304', API, false],
  ['path:/api/cart/items', API, true],
  ['path:/api/*', API, true],
  ['path:/API/*', API, false],
  ['path:*/items', API, true],
  ['path:/api', API, false],
  ['path:*.woff2', FONT, true],
  ['static', FONT, true],
  ['static', API, false],
  ['STATIC', FONT, true],
  ['!static', FONT, false],
  ['!static', API, true],
  ['!method:GET', API, true],
  ['!method:GET|POST', API, false],
  ['!host:*.cdn.test', FONT, false],
];

t.test('each key, glob, alternative and negation matches as documented', async (t) => {
  for (const [expression, facts, expected] of MATCHES)
    t.equal(keeps(expression, facts), expected, `${expression} on ${facts.host}${facts.path}`);
});

t.test('several criteria must all hold, in any spacing', async (t) => {
  t.equal(keeps('path:/api/* method:POST status:2xx', API), true);
  t.equal(keeps('path:/api/*  !method:POST', API), false, 'one failing criterion drops it');
  t.equal(keeps('\t!static\n type:json ', API), true, 'tabs and newlines separate criteria');
  t.equal(keeps('method:POST method:GET', API), false, 'the same key twice: both must hold');
  t.equal(keeps('!type:image/* !type:font/*', FONT), false);
  t.equal(keeps('!type:image/* !type:font/*', API), true);
});

t.test('criteria keep their text for summaries', async (t) => {
  const parsed = parseHarFilter(' !method:GET|HEAD  static ');
  t.ok(parsed.ok);
  if (!parsed.ok) return;
  t.same(
    parsed.value.map((c) => [c.text, c.key, c.negated, c.patterns.length]),
    [
      ['!method:GET|HEAD', 'method', true, 2],
      ['static', 'static', false, 0],
    ],
  );
});

/** Expression, failing part, position (0-based), and what the message must say. */
const ERRORS: readonly [string, string, number, RegExp][] = [
  ['', 'criterion', 0, /a criterion is required/],
  ['   ', 'criterion', 0, /a criterion is required/],
  ['mehtod:GET', 'key', 0, /unknown key "mehtod" \(key at character 1\); did you mean "method"\?/],
  ['!static hots:x', 'key', 8, /unknown key "hots" .*; did you mean "host"\?/],
  [
    'stati',
    'key',
    0,
    /"stati" is not a criterion: write key:value or static .*did you mean "static"/,
  ],
  ['method', 'value', 6, /a ":" and a value must follow "method"/],
  ['method:', 'value', 7, /a value is required here/],
  ['method:GET|', 'value', 11, /a value is required here/],
  ['method:GET||POST', 'value', 11, /a value is required here/],
  ['method:G-T', 'value', 8, /"-" cannot appear in a method value/],
  ['method:!GET', 'value', 7, /put "!" before the key to negate: !method:GET/],
  ['!', 'criterion', 1, /"!" must be followed directly by a criterion/],
  ['! method:GET', 'criterion', 1, /"!" must be followed directly by a criterion/],
  ['!!static', 'criterion', 1, /negated once/],
  ['status:20', 'value', 7, /a status has three digits, got "20"/],
  ['status:2a0', 'value', 8, /"a" cannot appear in a status value/],
  ['path:api/*', 'value', 5, /a path starts with "\/"/],
  ['host:a b:c', 'key', 7, /unknown key "b"/],
  ['type:text/html;q=1', 'value', 14, /";" cannot appear in a type value/],
];

t.test(
  'malformed expressions: the failing part, its position, the expression quoted',
  async (t) => {
    for (const [expression, part, position, message] of ERRORS) {
      const parsed = parseHarFilter(expression);
      t.notOk(parsed.ok, `${JSON.stringify(expression)} is refused`);
      if (parsed.ok) continue;
      t.equal(parsed.error.part, part, `${expression}: part`);
      t.equal(parsed.error.position, position, `${expression}: position`);
      t.match(parsed.error.message, message, `${expression}: message`);
      t.match(
        parsed.error.message,
        `invalid HAR filter ${JSON.stringify(expression)}: `,
        'the message quotes the expression',
      );
      t.match(
        parsed.error.message,
        `at character ${position + 1})`,
        'the message gives the position',
      );
    }
  },
);

/** Grammar pieces, so random strings get past the first character often. */
const TOKENS = [
  '!',
  ':',
  '|',
  '*',
  ' ',
  '\t',
  'host',
  'method',
  'type',
  'status',
  'path',
  'static',
  'GET',
  '/',
  '2xx',
  '.',
  '-',
  '😀',
  '\ud800',
];
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom(...TOKENS), maxLength: 20 }),
);

t.test('the parser never throws, and its errors are well formed', async (t) => {
  fc.assert(
    fc.property(anyText, (text) => {
      const parsed = parseHarFilter(text);
      if (parsed.ok) return parsed.value.length > 0;
      const { message, part, position } = parsed.error;
      return (
        message.startsWith('invalid HAR filter ') &&
        message.includes(`(${part} at character ${position + 1})`) &&
        position >= 0 &&
        position <= text.length
      );
    }),
    { numRuns: 3000 },
  );
  t.pass('no input threw');
});

/** A glob made of a key's characters and "*". */
const glob = (chars: string, prefix = '') =>
  fc
    .string({ unit: fc.constantFrom(...chars.split(''), '*'), minLength: 1, maxLength: 8 })
    .map((g) => `${prefix}${g}`);
const VALUES = {
  host: glob('abcxyz019.-:'),
  method: glob('GETPOSTget'),
  type: glob('abcjson/+.-'),
  status: fc.oneof(
    fc.stringMatching(/^[0-9xX]{3}$/),
    fc.stringMatching(/^[0-9xX]{0,3}\*[0-9xX*]{0,3}$/),
  ),
  path: glob('/abc.%~_-?=&', '/'),
};
const criterion = fc.oneof(
  fc.record({
    negated: fc.boolean(),
    key: fc.constant('static' as const),
    values: fc.constant([]),
  }),
  fc.constantFrom(...HAR_FILTER_KEYS).chain((key) =>
    fc.record({
      negated: fc.boolean(),
      key: fc.constant(key),
      values: fc.array(VALUES[key], { minLength: 1, maxLength: 3 }),
    }),
  ),
);

t.test('generated valid expressions parse back to their criteria', async (t) => {
  const expression = fc.record({
    criteria: fc.array(criterion, { minLength: 1, maxLength: 4 }),
    gaps: fc.array(fc.constantFrom(' ', '  ', '\t', '\n'), { minLength: 5, maxLength: 5 }),
  });
  fc.assert(
    fc.property(expression, ({ criteria, gaps }) => {
      const texts = criteria.map(
        (c) =>
          `${c.negated ? '!' : ''}${c.key === 'static' ? 'static' : `${c.key}:${c.values.join('|')}`}`,
      );
      const text = texts.map((c, i) => `${gaps[i] ?? ' '}${c}`).join('');
      const parsed = parseHarFilter(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value.every(
        (c, i) =>
          c.text === texts[i] &&
          c.key === criteria[i]?.key &&
          c.negated === criteria[i]?.negated &&
          c.patterns.length === criteria[i]?.values.length,
      );
    }),
    { numRuns: 1000 },
  );
  t.pass('criteria survive');
});

t.test('a glob without "*" matches exactly itself, and "*" matches anything', async (t) => {
  fc.assert(
    fc.property(fc.stringMatching(/^\/[a-z0-9/._-]{0,12}$/), (path) => {
      const facts = { ...API, path };
      return (
        keeps(`path:${path}`, facts) && keeps('path:*', facts) && !keeps(`path:${path}x`, facts)
      );
    }),
  );
  t.pass('exact and wildcard hold');
});
