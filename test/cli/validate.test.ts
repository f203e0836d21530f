import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';

const BASE = 'target: http://127.0.0.1:9\nconcurrency: 5\nduration: 5s\n';

/** Runs validate on a config text; returns the result. */
async function validate(
  t: Test,
  config: string,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  const dir = t.testdir({ 'load.yaml': config });
  return runInProcess(['validate', 'load.yaml', ...args], { cwd: dir, env });
}

t.test('precedence: flag > env > file, each value with its source', async (t) => {
  const flag = await validate(t, BASE, ['-c', '9'], { BARRAGE_CONCURRENCY: '7' });
  t.equal(flag.code, 0, flag.stderr);
  t.match(flag.stdout, /^\s+concurrency\s+9\s+--concurrency$/m);
  const env = await validate(t, BASE, [], { BARRAGE_CONCURRENCY: '7' });
  t.match(env.stdout, /^\s+concurrency\s+7\s+BARRAGE_CONCURRENCY$/m);
  const file = await validate(t, BASE);
  t.match(file.stdout, /^\s+concurrency\s+5\s+load\.yaml:2:14$/m);
  t.match(file.stdout, /^\s+timeout\s+10s\s+default$/m, 'defaults are shown as such');
  t.match(file.stdout, /Configuration is valid\. Nothing was sent\./);
});

t.test('secrets are redacted in validate output', async (t) => {
  const config = `${BASE}headers: { Authorization: "Bearer abc123secret" }\nauth:\n  type: oauth2\n  token_url: http://127.0.0.1:9/token\n  client_id: me\n  client_secret: \${SECRET}\n`;
  const result = await validate(t, config, ['--header', 'Cookie: sid=cookie-secret'], {
    SECRET: 'hunter2-secret',
  });
  t.equal(result.code, 0, result.stderr);
  for (const secret of ['abc123secret', 'hunter2-secret', 'cookie-secret'])
    t.notMatch(result.stdout + result.stderr, secret);
  t.match(result.stdout, /auth\.client_secret\s+\[redacted\]/);
  t.match(result.stdout, /headers\.Authorization\s+\[redacted\]/);
});

/** Each bad input: its config, and what the one error line must say. */
const BAD: readonly [string, string, RegExp][] = [
  [
    'malformed YAML',
    'target: http://x\nendpoints: [\n',
    /load\.yaml:\d+:\d+: expected valid YAML or JSON/,
  ],
  [
    'wrong type',
    `${BASE}rate: fast\n`,
    /load\.yaml:4:7: rate: expected a number > 0 \(permits per second\), got "fast"/,
  ],
  [
    'unknown key with did-you-mean',
    `${BASE}concurency: 5\n`,
    /load\.yaml:4:1: concurency: expected one of .*, got unknown key "concurency" \(did you mean concurrency\?\)/,
  ],
  [
    'nested unknown key',
    `${BASE}retry: { max_attemps: 3 }\n`,
    /retry\.max_attemps: .*did you mean max_attempts\?/,
  ],
  [
    'zero concurrency',
    'target: http://x\nconcurrency: 0\n',
    /concurrency: expected a positive integer \(number of workers\), got 0/,
  ],
  [
    'negative rate',
    `${BASE}rate: -5\n`,
    /rate: expected a number > 0 \(permits per second\), got -5/,
  ],
  [
    'fractional requests',
    `${BASE}requests: 2.5\n`,
    /requests: expected a positive integer \(total iterations\), got 2.5/,
  ],
  [
    'invalid duration',
    'target: http://x\nduration: 30\n',
    /load\.yaml:2:11: duration: expected a duration with a unit, such as 30s or 30ms \(length of the run\), got 30/,
  ],
  [
    'unknown duration unit',
    'target: http://x\nduration: 5d\n',
    /duration: expected a duration .*, got "5d"/,
  ],
  [
    'unknown metric',
    `${BASE}thresholds: ["http_req_duratio:p95 < 300"]\n`,
    /load\.yaml:4:14: thresholds\[0\]: expected a threshold .*, got "http_req_duratio:p95 < 300": .*unknown metric "http_req_duratio".*did you mean "http_req_duration"\?/,
  ],
  [
    'unsupported aggregate',
    `${BASE}thresholds: ["http_req_failed:p95 < 1"]\n`,
    /thresholds\[0\]: .*aggregate/,
  ],
  [
    'bad operator',
    `${BASE}thresholds: ["http_req_duration:p95 => 300"]\n`,
    /thresholds\[0\]: .*operator/,
  ],
  ['missing value', `${BASE}thresholds: ["http_req_duration:p95 <"]\n`, /thresholds\[0\]: .*value/],
  [
    'non-numeric value',
    `${BASE}thresholds: ["http_req_duration:p95 < fast"]\n`,
    /thresholds\[0\]: .*value/,
  ],
  [
    'trailing garbage',
    `${BASE}thresholds: ["http_req_duration:p95 < 300 ms"]\n`,
    /thresholds\[0\]: .*(trailing|value)/,
  ],
  [
    'missing ${VAR}',
    `${BASE}headers: { X-Key: "\${NOPE_NOT_SET}" }\n`,
    /load\.yaml:4:\d+: headers\.X-Key: expected environment variable NOPE_NOT_SET to be set/,
  ],
  [
    'prototype pollution',
    `${BASE}headers: { __proto__: { x: 1 } }\n`,
    /headers\.__proto__: expected a configuration key, got "__proto__"/,
  ],
  [
    'unknown auth type',
    `${BASE}auth: { type: oauth }\n`,
    /auth\.type: expected type to be one of oauth2, bearer, basic, got "oauth" \(did you mean oauth2\?\)/,
  ],
  [
    'unknown flow step',
    `${BASE}endpoints: [{ name: login, url: /l }]\nflows: [{ name: f, steps: [logni] }]\n`,
    /flows\[0\]\.steps\[0\]: expected an endpoint name: login, got "logni" \(did you mean login\?\)/,
  ],
  [
    'JSONPath with a filter',
    `${BASE}endpoints: [{ url: /l, extract: { a: "$.x[?(@.y)]" } }]\n`,
    /endpoints\[0\]\.extract\.a: .*filter expressions \(\[\?…\]\) are not supported/,
  ],
  [
    'JSONPath segment $.@ (not RFC 9535; jsonpath-plus throws on it for every body)',
    `${BASE}endpoints: [{ url: /l, extract: { a: "$.@" } }]\n`,
    /load\.yaml:4:\d+: endpoints\[0\]\.extract\.a: expected a JSONPath such as \$\.items\[0\]\.id, got "\$\.@": invalid JSONPath "\$\.@": after "\." comes "\*" or a name .*; for the key "@" write \['@'\]/,
  ],
  [
    "JSONPath with jsonpath-plus's backquote",
    `${BASE}endpoints: [{ url: /l, extract: { a: { json: "$.\`@id" } } }]\n`,
    /endpoints\[0\]\.extract\.a\.json: .*for the key "@id" write \['@id'\]/,
  ],
  [
    'JSONPath parent operator',
    `${BASE}endpoints: [{ url: /l, extract: { a: "$.^" } }]\n`,
    /endpoints\[0\]\.extract\.a: .*got "\^"/,
  ],
  [
    'JSONPath property-name operator',
    `${BASE}endpoints: [{ url: /l, extract: { a: "$.a~" } }]\n`,
    /endpoints\[0\]\.extract\.a: .*got "~"/,
  ],
];

for (const [name, config, message] of BAD) {
  t.test(`bad input: ${name}`, async (t) => {
    const result = await validate(t, config);
    t.equal(result.code, 1);
    t.equal(result.stdout, '', 'stdout stays empty');
    t.match(result.stderr, message);
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });
}

t.test(
  'CR, LF and NUL in urls and headers are refused, escaped, secrets never shown',
  async (t) => {
    const cases: [string, string, string[], Record<string, string>, RegExp][] = [
      [
        'a header value in the file',
        `${BASE}headers: { X-Trace: "a\\r\\nb" }\n`,
        [],
        {},
        /load\.yaml:4:\d+: headers\.X-Trace: expected text without CR, LF or NUL \(value of a header in headers sent with every request\), got "a\\r\\nb": it holds a carriage return and a line feed/,
      ],
      [
        'an endpoint url',
        `${BASE}endpoints: [{ url: "/a\\0b" }]\n`,
        [],
        {},
        /load\.yaml:4:\d+: endpoints\[0\]\.url: expected text without CR, LF or NUL .*, got "\/a\\u0000b": it holds a NUL character/,
      ],
      [
        'the target',
        'target: "http://127.0.0.1:9/x\\n"\nduration: 5s\n',
        [],
        {},
        /load\.yaml:1:\d+: target: expected text without CR, LF or NUL \(base URL of the requests\), got "http:\/\/127\.0\.0\.1:9\/x\\n": it holds a line feed/,
      ],
      [
        'a --header flag',
        BASE,
        ['--header', 'X-A: a\rb'],
        {},
        /--header: headers\.X-A: expected text without CR, LF or NUL .*, got "a\\rb": it holds a carriage return/,
      ],
      [
        'BARRAGE_HEADERS',
        BASE,
        [],
        { BARRAGE_HEADERS: '{"X-B":"a\\nb"}' },
        /BARRAGE_HEADERS: headers\.X-B: expected text without CR, LF or NUL .*, got "a\\nb": it holds a line feed/,
      ],
      [
        'a secret header: its name only',
        `${BASE}endpoints: [{ url: /, headers: { Authorization: "Bearer s3cret\\nX-Injected: 1" } }]\n`,
        [],
        {},
        /endpoints\[0\]\.headers\.Authorization: expected text without CR, LF or NUL .*, got \[redacted\]: it holds a line feed/,
      ],
      [
        'a {{$env NAME}} in a header: its name only',
        `${BASE}headers: { X-Key: "{{$env KEY_WITH_LF}}" }\n`,
        [],
        { KEY_WITH_LF: 'k3y-s3cret\nX-Injected: 1' },
        /headers\.X-Key: expected environment variable KEY_WITH_LF without CR, LF or NUL .*, got KEY_WITH_LF holding a line feed/,
      ],
    ];
    for (const [name, config, args, env, message] of cases) {
      const result = await validate(t, config, args, env);
      t.equal(result.code, 1, name);
      t.match(result.stderr, message, name);
      t.notMatch(result.stderr, /s3cret|X-Injected/, `${name}: no secret, no raw line break`);
      t.notMatch(result.stderr.replace(/\n$/, '').split('\n').slice(1).join(''), /\r/, name);
    }
  },
);

t.test('every problem is reported at once, one per line', async (t) => {
  const result = await validate(
    t,
    'target: http://x\nconcurrency: 0\nrate: -1\nduration: 1x\nthresholds: ["nope:p9 < 1"]\nbogus: 1\n',
  );
  t.equal(result.code, 1);
  t.match(result.stderr, /5 problems in the configuration/);
  t.equal(result.stderr.split('\n').filter((l) => l.startsWith('  error: ')).length, 5);
});

t.test('a missing file, an oversized file, an alias bomb, deep nesting', async (t) => {
  const dir = t.testdir({
    'bomb.yaml': [
      'a: &a [x,x,x,x,x,x,x,x,x,x]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    ].join('\n'),
    'deep.yaml': 'target: ' + '['.repeat(5000) + ']'.repeat(5000),
  });
  writeFileSync(join(dir, 'big.yaml'), `# ${'x'.repeat(5 * 1024 * 1024)}\n`);
  const cases: [string, RegExp][] = [
    ['nope.yaml', /nope\.yaml: expected an existing configuration file, got no such file/],
    ['big.yaml', /big\.yaml: expected a configuration file of at most 4 MiB, got 5\.0 MiB/],
    ['bomb.yaml', /bomb\.yaml: expected at most 100 alias expansions/],
    ['deep.yaml', /deep\.yaml:1:\d+: expected nesting at most 64 levels deep/],
  ];
  for (const [file, message] of cases) {
    const result = await runInProcess(['validate', file], { cwd: dir });
    t.equal(result.code, 1, file);
    t.equal(result.stdout, '', `${file}: stdout empty`);
    t.match(result.stderr, message, file);
    t.notMatch(result.stderr, /RangeError|\n\s+at /, `${file}: no stack`);
  }
});

t.test('bad flag and environment values name the flag and the variable', async (t) => {
  const flag = await validate(t, BASE, ['--concurrency', 'lots', '--header', 'no-colon']);
  t.equal(flag.code, 1);
  t.match(flag.stderr, /--concurrency: concurrency: expected a positive integer .*, got "lots"/);
  t.match(flag.stderr, /--header: headers: expected 'Name: value', got "no-colon"/);
  const env = await validate(t, BASE, [], { BARRAGE_RATE: 'x', BARRAGE_HEADERS: '{bad json' });
  t.match(env.stderr, /BARRAGE_RATE: rate: expected a number > 0/);
  t.match(env.stderr, /BARRAGE_HEADERS: headers: expected JSON/);
});

t.test('unknown BARRAGE_ variables are warned about with a did-you-mean, not fatal', async (t) => {
  const result = await validate(t, BASE, [], {
    BARRAGE_CONCURENCY: '3',
    BARRAGE_THRESHOLDS: 'http_req_duration:p95 < 300; http_req_failed:rate < 0.1',
  });
  t.equal(result.code, 0);
  t.match(
    result.stderr,
    /warning: BARRAGE_CONCURENCY: unknown environment variable BARRAGE_CONCURENCY is ignored \(did you mean BARRAGE_CONCURRENCY\?\)/,
  );
  t.match(result.stdout, /thresholds\[1\]\s+http_req_failed:rate < 0\.1\s+BARRAGE_THRESHOLDS/);
});

t.test('clipanion usage errors go to stderr with exit 1', async (t) => {
  const result = await runInProcess(['validate', '--no-such-flag']);
  t.equal(result.code, 1);
  t.equal(result.stdout, '');
  t.match(result.stderr, /Unsupported option name|unknown/i);
});

t.test('the plan view shows each endpoint as it is sent, names aligned', async (t) => {
  const config = `${BASE}endpoints:\n  - { name: catalog, url: /json, weight: 1 }\n  - name: feed\n    url: ws://127.0.0.1:9/ws\n    weight: 3\n    messages: [{ text: hi }, { text: bye }]\n`;
  const result = await validate(t, config);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /^ {4}catalog {2}\[25\.0%\] {2}GET http:\/\/127\.0\.0\.1:9\/json$/m);
  t.match(result.stdout, /^ {4}feed {5}\[75\.0%\] {2}WS ws:\/\/127\.0\.0\.1:9\/ws \(2 sends\)$/m);
});

t.test('the plan view names the llm preset of an endpoint, or its own layout', async (t) => {
  const config = `${BASE}endpoints:
  - { name: chat, method: POST, url: /v1/chat/completions, stream: sse, llm: openai-chat, body: { stream: true } }
  - { name: gen, method: POST, url: /generate, stream: sse, llm: { output: $.token.text } }
`;
  const result = await validate(t, config);
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    /chat {2}\[50\.0%\] {2}LLM openai-chat POST http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions/,
  );
  t.match(
    result.stdout,
    /gen {3}\[50\.0%\] {2}LLM custom layout POST http:\/\/127\.0\.0\.1:9\/generate/,
  );
});

t.test('the plan shows query, form fields, multipart parts and urls from variables', async (t) => {
  const dir = t.testdir({
    'photo.png': 'x',
    'f.csv': 'term,u,id,next\na,b,1,/x\n',
    'load.yaml': `target: http://127.0.0.1:9
requests: 1
feeder: { file: f.csv }
endpoints:
  - { name: s, url: "/s?lang=en", query: { q: "{{term}}", page: 2 } }
  - { name: login, url: /login, method: POST, form: { username: "{{u}}", _csrf: x } }
  - name: up
    url: /up
    method: POST
    multipart: { title: "x {{id}}", photo: { file: photo.png, content_type: image/png } }
  - { name: next, url: "{{next}}" }
`,
  });
  const result = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    /GET http:\/\/127\.0\.0\.1:9\/s\?lang=en&q=\{\{term\}\}&page=2 {2}needs term/,
  );
  t.match(result.stdout, /POST http:\/\/127\.0\.0\.1:9\/login {2}form username, _csrf {2}needs u/);
  t.match(
    result.stdout,
    /POST http:\/\/127\.0\.0\.1:9\/up {2}multipart title, photo ← photo\.png \(image\/png\) {2}needs id/,
  );
  t.match(result.stdout, /GET \{\{next\}\} \(url from a variable\) {2}needs next/);
  t.match(result.stdout, /endpoints\[1\]\.form\.username\s+\{\{u\}\}\s+load\.yaml:6:\d+/);
});

t.test('a url from a variable needs an http target', async (t) => {
  const result = await validate(
    t,
    'target: ws://127.0.0.1:9\nrequests: 1\nendpoints:\n  - { url: "{{next}}" }\n',
  );
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /load\.yaml:4:\d+: endpoints\[0\]\.url: expected an http or https target for a url taken from a variable/,
  );
});
