// `barrage validate` (the built binary, spawned) on regex and css extractors: a bad one is an
// error naming file:line and the key, exit 1, no stack trace; good ones are shown in the plan.
import t from 'tap';
import { runCli } from '../helpers/run-cli.js';
import { testRefusals, type Refusal } from '../helpers/validate-refusals.js';

const BASE = 'target: http://127.0.0.1:9\nrequests: 1\nendpoints:\n  - url: /form\n    extract:\n';

/** Each bad extractor (one line under extract, line 6 of the file) and its error line. */
const BAD: readonly Refusal[] = [
  [
    'invalid regex',
    `      v: { regex: 'value="([^"]+"' }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v\.regex: expected a regular expression such as .*, got "value=\\"\(\[\^\\"\]\+\\"": invalid regular expression .*: Unterminated group/,
  ],
  [
    'invalid selector',
    `      v: { css: 'input[name=' }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v\.css: expected a CSS selector such as input\[name=_csrf\], got "input\[name=": invalid CSS selector "input\[name=": /,
  ],
  [
    'unknown pseudo-class',
    `      v: { css: 'input:checkd' }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v\.css: .*Unknown pseudo-class :checkd/,
  ],
  [
    'empty selector',
    `      v: { css: '  ' }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v\.css: .*: it is empty/,
  ],
  [
    'attr without css',
    `      v: { attr: value }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v: expected \{ css: <selector>, attr: <name> \}: attr reads an attribute of the element a css selector finds, so it needs css, got a mapping/,
  ],
  [
    'unknown key beside css',
    `      v: { css: input, atr: value }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v\.atr: expected one of json, pick, header, regex, css, attr, got unknown key "atr" \(did you mean attr\?\)/,
  ],
  [
    'regex flags are not a key',
    `      v: { regex: abc, flags: i }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v\.flags: expected one of json, pick, header, regex, css, attr, got unknown key "flags"/,
  ],
  [
    'regex and css together',
    `      v: { regex: abc, css: input }`,
    /load\.yaml:6:\d+: endpoints\[0\]\.extract\.v: expected a JSONPath such as \$\.access_token, or one of \{ json: <path>, pick: first \| random \| all \}, \{ header: <name> \}, \{ regex: <pattern> \}, \{ css: <selector>, attr: <name> \(optional\) \}, got a mapping/,
  ],
];

testRefusals(BASE, BAD);

t.test('every problem at once, the run refused before any traffic', async (t) => {
  const dir = t.testdir({
    'load.yaml': `${BASE}      a: { regex: '(' }\n      b: { css: 'a:nope' }\n      c: { attr: href }\n`,
  });
  const result = await runCli(['run', 'load.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 1);
  t.match(result.stderr, /3 problems/);
  t.match(result.stderr, /load\.yaml:6:\d+: endpoints\[0\]\.extract\.a\.regex/);
  t.match(result.stderr, /load\.yaml:7:\d+: endpoints\[0\]\.extract\.b\.css/);
  t.match(result.stderr, /load\.yaml:8:\d+: endpoints\[0\]\.extract\.c:/);
  t.equal(result.stdout, '', 'no report');
});

t.test('the plan shows where each extractor reads its value', async (t) => {
  const extract = [
    `      csrf: { css: 'input[name=_csrf]', attr: Value }`,
    `      title: { css: title }`,
    `      nonce: { regex: 'nonce="([^"]+)"' }`,
    `      id: $.id`,
    `      rid: { header: X-Request-Id }`,
  ].join('\n');
  const dir = t.testdir({ 'load.yaml': `${BASE}${extract}\n` });
  const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    'extracts csrf ← css input[name=_csrf] @value, title ← css title (text), nonce ← regex nonce="([^"]+)", id ← $.id, rid ← header x-request-id',
  );
  t.match(
    result.stdout,
    /endpoints\[0\]\.extract\.csrf\.css\s+input\[name=_csrf\]\s+load\.yaml:6:/,
  );
  t.match(
    result.stdout,
    /endpoints\[0\]\.extract\.nonce\.regex\s+nonce="\(\[\^"\]\+\)"\s+load\.yaml:8:/,
  );
});
