// `barrage validate` on flows with loops, ifs and reauth: an unbounded or over-bound loop, a
// condition without a subject or with two, nesting past its depth, a reauth naming no endpoint
// are each an error naming file:line and the key, exit 1, nothing sent; a good flow is drawn as
// a tree in the plan view.
import t from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { testRefusals, type Refusal } from '../helpers/validate-refusals.js';

const BASE =
  'target: http://127.0.0.1:9\nendpoints:\n  - { name: page, url: /, extract: { next: $.next } }\n  - { name: login, url: /login }\n';

const loop = (body: string): string => `flows:\n  - name: f\n    steps:\n      - loop: ${body}`;

const BAD: readonly Refusal[] = [
  [
    'a while loop without a bound',
    loop('{ while: { var: next, exists: true }, steps: [page] }'),
    /load\.yaml:8:\d+: flows\[0\]\.steps\[0\]\.loop\.max: expected a bound on a while loop: max, the most passes it may make \(at most 100000\), got nothing/,
  ],
  [
    'a loop bound over the limit',
    loop('{ while: { var: next, exists: true }, max: 1000000, steps: [page] }'),
    /load\.yaml:8:\d+: flows\[0\]\.steps\[0\]\.loop\.max: expected a loop bound of at most 100000 passes, got 1000000/,
  ],
  [
    'a count over the default bound',
    loop('{ count: 5000, steps: [page] }'),
    /load\.yaml:8:\d+: flows\[0\]\.steps\[0\]\.loop\.count: expected a count within the loop's bound, max 1000 \(the default; write max to raise it, at most 100000\), got 5000/,
  ],
  [
    'a count over its own max',
    loop('{ count: 20, max: 10, steps: [page] }'),
    /loop\.count: expected a count within the loop's bound, max 10, got 20/,
  ],
  [
    'a loop of two kinds',
    loop('{ count: 2, over: next, steps: [page] }'),
    /load\.yaml:8:\d+: flows\[0\]\.steps\[0\]\.loop: expected one of count \(passes\), over \(a variable holding a JSON list\) or while \(a condition\), got count and over/,
  ],
  [
    'a loop of no kind',
    loop('{ steps: [page] }'),
    /flows\[0\]\.steps\[0\]\.loop: expected one of count .*, got none of them/,
  ],
  [
    'an unknown endpoint in a loop',
    loop('{ count: 2, steps: [pgae] }'),
    /flows\[0\]\.steps\[0\]\.loop\.steps\[0\]: expected an endpoint name: page, login, got "pgae" \(did you mean page\?\)/,
  ],
  [
    'a condition with two subjects',
    'flows:\n  - name: f\n    steps:\n      - if: { var: next, status: 401, exists: true }\n        steps: [page]',
    /load\.yaml:8:\d+: flows\[0\]\.steps\[0\]\.if: expected one subject: var, status, json, all, any, not, got var and status/,
  ],
  [
    'a condition with a predicate its subject does not take',
    'flows:\n  - name: f\n    steps:\n      - if: { json: $.a, matches: x }\n        steps: [page]',
    /flows\[0\]\.steps\[0\]\.if\.matches: expected one of equals, not_equals, exists, got matches with json/,
  ],
  [
    'nesting past eight levels',
    `flows:\n  - name: f\n    steps: ${'[{ loop: { count: 1, steps: '.repeat(9)}[page]${' } }]'.repeat(9)}`,
    /flows\[0\](\.steps\[0\]\.loop){8}\.steps\[0\]: expected loops and ifs nested at most 8 deep, got one at depth 9/,
  ],
  [
    'a compared value no variable fills',
    'flows:\n  - name: f\n    steps:\n      - if: { var: next, equals: "{{nxet}}" }\n        steps: [page]',
    /load\.yaml:6:\d+: flows\[0\]: expected a placeholder something fills: next \(extracted\), got \{\{nxet\}\} \(did you mean \{\{next\}\}\?\)/,
  ],
];

testRefusals(BASE, BAD);

testRefusals(
  'target: http://127.0.0.1:9\nendpoints:\n  - { name: data, url: /d, reauth: { run: refrsh } }\n  - { name: refresh, url: /r }\n',
  [
    [
      'a reauth naming no endpoint',
      '',
      /load\.yaml:3:\d+: endpoints\[0\]\.reauth\.run: expected an endpoint name: data, refresh, got "refrsh" \(did you mean refresh\?\)/,
    ],
  ],
);

t.test('the plan view draws loops and branches', async (t) => {
  const dir = t.testdir({
    'load.yaml': `${BASE}  - { name: data, url: /data, reauth: { on: [401, 419], run: login }, extract: { ids: { json: '$.ids[*]', pick: all }, one: { json: '$.ids[*]', pick: random } } }
flows:
  - name: f
    steps:
      - page
      - loop: { while: { json: $.next, exists: true }, max: 50, steps: [page] }
      - if: { any: [{ status: 401 }, { var: next, equals: 'x{{next}}' }] }
        steps: [login]
        else: [{ loop: { over: ids, as: id, steps: [data] } }]
      - loop: { count: 3, steps: [data] }
`,
  });
  const result = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    [
      '  flow f  [100.0%]',
      '    page',
      '    loop while json $.next exists, at most 50 passes',
      '      page',
      '    if any(status 401, next = "x{{next}}")',
      '      login',
      '    else',
      '      loop over {{ids}} as id, at most 1000 passes',
      '        data',
      '    loop 3 times',
      '      data',
    ].join('\n'),
  );
  t.match(result.stdout, /on 401, 419: runs login, then once more/);
  t.match(
    result.stdout,
    /ids ← \$\.ids\[\*\] \(all, a list\), one ← \$\.ids\[\*\] \(one at random\)/,
  );
});
