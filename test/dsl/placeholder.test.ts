import t from 'tap';
import type { Template } from '../../model/plan/template.js';
import { isStatic, parseTemplate } from '../../dsl/grammar/placeholder.js';
import { templateVariables } from '../../model/plan/template.js';

const VALID: readonly (readonly [string, Template])[] = [
  ['', []],
  ['plain text', ['plain text']],
  ['{{name}}', [{ var: 'name' }]],
  ['{{ name }}', [{ var: 'name' }]],
  ['{{\tuser.id\t}}', [{ var: 'user.id' }]],
  ['{{_a-b.c9}}', [{ var: '_a-b.c9' }]],
  ['Bearer {{token}}', ['Bearer ', { var: 'token' }]],
  ['a{{x}}b{{y}}c', ['a', { var: 'x' }, 'b', { var: 'y' }, 'c']],
  ['{{x}}{{x}}', [{ var: 'x' }, { var: 'x' }]],
  ['{{$uuid}}', [{ fn: 'uuid' }]],
  ['{{ $timestamp }}', [{ fn: 'timestamp' }]],
  ['{{$randomInt 1 100}}', [{ fn: 'randomInt', min: 1, max: 100 }]],
  ['{{$randomInt  -5   -5 }}', [{ fn: 'randomInt', min: -5, max: -5 }]],
  ['{{$env HOME}}', [{ fn: 'env', name: 'HOME' }]],
  ['{{$isoTimestamp}}', [{ fn: 'isoTimestamp' }]],
  ['{{ $randomString 8 }}', [{ fn: 'randomString', length: 8 }]],
  ['{{$randomItem ids}}', [{ fn: 'randomItem', list: 'ids' }]],
  ['{{ $env _X1 }}', [{ fn: 'env', name: '_X1' }]],
  ['\\{{literal}}', ['{{literal}}']],
  ['a\\{{b{{c}}', ['a{{b', { var: 'c' }]],
  ['a}}b', ['a}}b']],
  ['}}', ['}}']],
  ['{ {x} }', ['{ {x} }']],
  ['a\\nb\\"c', ['a\\nb\\"c']],
  ['{"user":{{{user}}}}', ['{"user":{', { var: 'user' }, '}}']],
  ['{{x}}}', [{ var: 'x' }, '}']],
  ['€{{x}}😀', ['€', { var: 'x' }, '😀']],
  ['{{$raw next}}', [{ var: 'next', encoding: 'raw' }]],
  ['/a/{{ $raw  path.x }}?b', ['/a/', { var: 'path.x', encoding: 'raw' }, '?b']],
];

t.test('valid templates parse to merged parts', (t) => {
  for (const [text, parts] of VALID)
    t.same(parseTemplate(text), { ok: true, value: parts }, JSON.stringify(text));
  t.end();
});

/** text, failing part, 0-based position, a fragment of the message. */
const INVALID: readonly (readonly [string, string, number, string])[] = [
  ['{{name', 'placeholder', 0, '"{{" is never closed by "}}"'],
  ['abc {{x} }', 'placeholder', 4, 'write \\{{ for a literal "{{"'],
  ['{{}}', 'placeholder', 0, 'empty placeholder'],
  ['a{{   }}', 'placeholder', 1, 'empty placeholder'],
  ['{{1x}}', 'name', 2, '"1x" is not a valid name'],
  ['{{ a/b }}', 'name', 4, '"a/b" is not a valid name'],
  ['{{first name}}', 'name', 8, 'a name cannot contain spaces'],
  [
    '{{$uid}}',
    'builtin',
    2,
    'unknown built-in "$uid" (builtin at character 3); did you mean "$uuid"?',
  ],
  ['{{$UUID}}', 'builtin', 2, 'did you mean "$uuid"?'],
  [
    '{{$now}}',
    'builtin',
    2,
    'Allowed: {{$raw name}}, {{$uuid}}, {{$timestamp}}, {{$isoTimestamp}}, {{$randomInt MIN MAX}}, {{$randomString LENGTH}}, {{$randomItem name}}, {{$env NAME}}',
  ],
  ['{{$Raw next}}', 'builtin', 2, 'did you mean "$raw"?'],
  ['{{$raw}}', 'argument', 6, 'missing name: write {{$raw name}}'],
  ['{{$raw a b}}', 'argument', 7, '$raw takes one argument, a variable name, got 2'],
  ['{{$raw 1x}}', 'name', 7, '"1x" is not a valid name'],
  ['{{$uuid 4}}', 'argument', 8, '$uuid takes no arguments, got 1'],
  ['{{$timestamp ms}}', 'argument', 13, '$timestamp takes no arguments'],
  ['{{$randomString}}', 'argument', 15, '$randomString takes one length, got 0'],
  ['{{$randomString 0}}', 'argument', 16, 'not a length from 1 to 10000'],
  ['{{$randomString x}}', 'argument', 16, 'not a length from 1 to 10000'],
  ['{{$randomItem}}', 'argument', 13, 'missing name: write {{$randomItem name}}'],
  ['{{$randomItem 1x}}', 'name', 14, '"1x" is not a valid name'],
  ['{{$randomInt}}', 'argument', 12, '$randomInt takes two integers, MIN and MAX, got 0'],
  ['{{$randomInt 1}}', 'argument', 12, 'got 1'],
  ['{{$randomInt 1 2 3}}', 'argument', 17, 'got 3'],
  ['{{$randomInt 1.5 3}}', 'argument', 13, '"1.5" is not an integer'],
  ['{{$randomInt 1 x}}', 'argument', 15, '"x" is not an integer'],
  ['{{$randomInt 1 99999999999999999999}}', 'argument', 15, 'is not an integer'],
  ['{{$randomInt 5 1}}', 'argument', 13, 'MIN <= MAX, got 5 > 1'],
  ['{{$env}}', 'argument', 6, 'missing NAME'],
  ['{{$env A B}}', 'argument', 7, '$env takes one argument, NAME, got 2'],
  ['{{$env 1A}}', 'argument', 7, '"1A" is not an environment variable name'],
  ['{{$env A.B}}', 'argument', 7, 'not an environment variable name'],
];

t.test('invalid templates name the part and say why', (t) => {
  for (const [text, part, position, fragment] of INVALID) {
    const result = parseTemplate(text);
    if (result.ok) {
      t.fail(`${text} should not parse`);
      continue;
    }
    t.equal(result.error.part, part, `${text}: part`);
    t.equal(result.error.position, position, `${text}: position`);
    t.match(result.error.message, fragment, `${text}: message`);
    t.match(result.error.message, `invalid template ${JSON.stringify(text)}`, `${text}: quotes it`);
  }
  t.end();
});

t.test('a long template is quoted as an excerpt around the failure', (t) => {
  const text = `${'x'.repeat(200)}{{1bad}}${'y'.repeat(200)}`;
  const result = parseTemplate(text);
  t.notOk(result.ok);
  if (!result.ok) {
    t.match(result.error.message, /…"x+\{\{1bad\}\}y+"…/);
    t.ok(result.error.message.length < 300, 'the message stays short');
  }
  t.end();
});

t.test('templateVariables lists each variable once, in order', (t) => {
  const cases: readonly (readonly [string, string[]])[] = [
    ['', []],
    ['static', []],
    ['{{b}}{{a}}{{b}}', ['b', 'a']],
    ['{{$uuid}}{{$env HOME}}{{x}}', ['x']],
    ['{{$randomItem ids}}-{{x}}', ['ids', 'x']],
  ];
  for (const [text, names] of cases) {
    const parsed = parseTemplate(text);
    t.same(parsed.ok ? templateVariables(parsed.value) : undefined, names, text);
  }
  t.end();
});

t.test('isStatic is true only without placeholders', (t) => {
  const cases: readonly (readonly [string, boolean])[] = [
    ['', true],
    ['text', true],
    ['\\{{x}}', true],
    ['{{x}}', false],
    ['{{$uuid}}', false],
    ['{{$env HOME}}', false],
  ];
  for (const [text, expected] of cases) {
    const parsed = parseTemplate(text);
    t.equal(parsed.ok && isStatic(parsed.value), expected, text);
  }
  t.end();
});
