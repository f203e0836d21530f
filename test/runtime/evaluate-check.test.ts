// Checks of one response, table-driven (runtime/checks/evaluate-check.ts), and the status sets of
// `expect` and status checks (model/plan/status-set.ts).
import { evaluatorJsonPath } from '../../dsl/grammar/json-path.js';
import t from 'tap';
import type { CheckPredicate, CheckSubject } from '../../model/plan/check-plan.js';
import { inStatusSet, parseStatusEntry, showStatusSet } from '../../model/plan/status-set.js';
import { checksReadBody, evaluateCheck } from '../../runtime/checks/evaluate-check.js';
import { importHtmlQuery, importJsonPath, ParsedBody } from '../../runtime/vars/extract.js';

// A segment imports the HTML parser for a plan with css extractors or checks; these read CSS.
await importHtmlQuery();
await importJsonPath();

/** A json subject, its path as the plan keeps it (written, and as jsonpath-plus reads it). */
const json = (path: string): CheckSubject => ({
  from: 'json',
  path,
  evaluatorPath: evaluatorJsonPath(path),
});

const JSON_BODY = JSON.stringify({
  token: 'abc',
  total: 3,
  items: [{ id: 7 }],
  nil: null,
  ok: true,
});
const HTML_BODY = '<h1 id="greeting" data-x="1">  Hello, Ada </h1><p>other</p>';

function response(body: string | undefined, status = 200, durationMs = 120) {
  const headers = [Buffer.from('X-Request-Id'), Buffer.from('req-42')];
  return { status, headers, body: new ParsedBody(body), durationMs };
}

const CASES: readonly (readonly [
  string,
  CheckSubject,
  CheckPredicate,
  string | undefined,
  boolean,
])[] = [
  ['status in', { from: 'status' }, { op: 'in', statuses: [{ min: 200, max: 299 }] }, '', true],
  ['status out', { from: 'status' }, { op: 'in', statuses: [{ min: 404, max: 404 }] }, '', false],
  ['json exists', json('$.token'), { op: 'exists' }, JSON_BODY, true],
  ['json missing', json('$.nope'), { op: 'exists' }, JSON_BODY, false],
  [
    'json RFC 9535 index from the end',
    json('$.items[-1].id'),
    { op: 'equals', value: 7 },
    JSON_BODY,
    true,
  ],
  ['json null is missing', json('$.nil'), { op: 'exists' }, JSON_BODY, false],
  ['json not JSON', json('$.token'), { op: 'exists' }, 'not json', false],
  ['json equals number', json('$.items[0].id'), { op: 'equals', value: 7 }, JSON_BODY, true],
  [
    'json equals keeps types',
    json('$.items[0].id'),
    { op: 'equals', value: '7' },
    JSON_BODY,
    false,
  ],
  ['json equals object', json('$.items[0]'), { op: 'equals', value: { id: 7 } }, JSON_BODY, true],
  ['json equals boolean', json('$.ok'), { op: 'equals', value: true }, JSON_BODY, true],
  ['json matches', json('$.token'), { op: 'matches', pattern: '^a.c$' }, JSON_BODY, true],
  [
    'json matches a number as text',
    json('$.total'),
    { op: 'matches', pattern: '^3$' },
    JSON_BODY,
    true,
  ],
  ['json lt', json('$.total'), { op: 'lt', value: 4 }, JSON_BODY, true],
  ['json lt at the bound', json('$.total'), { op: 'lt', value: 3 }, JSON_BODY, false],
  ['json lte', json('$.total'), { op: 'lte', value: 3 }, JSON_BODY, true],
  ['json gt', json('$.total'), { op: 'gt', value: 3 }, JSON_BODY, false],
  ['json gte', json('$.total'), { op: 'gte', value: 3 }, JSON_BODY, true],
  ['json gt on a string', json('$.token'), { op: 'gt', value: 0 }, JSON_BODY, false],
  [
    'header exists (any case)',
    { from: 'header', header: 'x-request-id' },
    { op: 'exists' },
    '',
    true,
  ],
  ['header missing', { from: 'header', header: 'x-other' }, { op: 'exists' }, '', false],
  [
    'header equals',
    { from: 'header', header: 'x-request-id' },
    { op: 'equals', value: 'req-42' },
    '',
    true,
  ],
  [
    'header matches',
    { from: 'header', header: 'x-request-id' },
    { op: 'matches', pattern: '\\d+$' },
    '',
    true,
  ],
  [
    'header contains',
    { from: 'header', header: 'x-request-id' },
    { op: 'contains', text: 'q-4' },
    '',
    true,
  ],
  ['body contains', { from: 'body' }, { op: 'contains', text: 'Hello' }, HTML_BODY, true],
  ['body lacks', { from: 'body' }, { op: 'contains', text: 'Goodbye' }, HTML_BODY, false],
  ['body matches', { from: 'body' }, { op: 'matches', pattern: 'Hello, \\w+' }, HTML_BODY, true],
  [
    'empty body matches nothing',
    { from: 'body' },
    { op: 'matches', pattern: 'x' },
    undefined,
    false,
  ],
  [
    'css text contains',
    { from: 'css', selector: 'h1#greeting', attr: undefined },
    { op: 'contains', text: 'Hello' },
    HTML_BODY,
    true,
  ],
  [
    'css text is trimmed',
    { from: 'css', selector: 'h1', attr: undefined },
    { op: 'equals', value: 'Hello, Ada' },
    HTML_BODY,
    true,
  ],
  [
    'css attr equals',
    { from: 'css', selector: 'h1', attr: 'data-x' },
    { op: 'equals', value: '1' },
    HTML_BODY,
    true,
  ],
  [
    'css no element',
    { from: 'css', selector: 'h2', attr: undefined },
    { op: 'exists' },
    HTML_BODY,
    false,
  ],
  [
    'css no attribute',
    { from: 'css', selector: 'p', attr: 'id' },
    { op: 'exists' },
    HTML_BODY,
    false,
  ],
  ['duration below', { from: 'duration' }, { op: 'lt', value: 300 }, '', true],
  ['duration above', { from: 'duration' }, { op: 'lt', value: 100 }, '', false],
];

t.test('each subject and predicate', async (t) => {
  for (const [label, subject, predicate, body, expected] of CASES)
    t.equal(evaluateCheck({ name: label, subject, predicate }, response(body)), expected, label);
});

t.test('a body that cannot be read fails the check, and nothing throws', async (t) => {
  const deep = '<div>'.repeat(2000);
  const check = {
    name: 'deep',
    subject: { from: 'css', selector: 'div', attr: undefined },
    predicate: { op: 'exists' },
  } as const;
  t.equal(evaluateCheck(check, response(deep)), false);
});

t.test('only json, body and css checks need the body kept', async (t) => {
  const of = (subject: CheckSubject) => [
    { name: 'n', subject, predicate: { op: 'exists' } } as const,
  ];
  t.equal(checksReadBody(of({ from: 'status' })), false);
  t.equal(checksReadBody(of({ from: 'header', header: 'x' })), false);
  t.equal(checksReadBody(of({ from: 'duration' })), false);
  t.equal(checksReadBody(of(json('$'))), true);
  t.equal(checksReadBody(of({ from: 'body' })), true);
  t.equal(checksReadBody(of({ from: 'css', selector: 'a', attr: undefined })), true);
});

t.test('status entries: statuses, classes and ranges', async (t) => {
  t.same(parseStatusEntry(404), { min: 404, max: 404 });
  t.same(parseStatusEntry('404'), { min: 404, max: 404 });
  t.same(parseStatusEntry('2xx'), { min: 200, max: 299 });
  t.same(parseStatusEntry('5XX'), { min: 500, max: 599 });
  t.same(parseStatusEntry('200-204'), { min: 200, max: 204 });
  for (const bad of [99, 600, 200.5, '6xx', '0xx', '204-200', '200-', 'ok', null, true, [200]])
    t.type(parseStatusEntry(bad), 'string', `${JSON.stringify(bad)} is refused`);
  const set = [parseStatusEntry(404), parseStatusEntry('2xx'), parseStatusEntry('300-302')] as {
    min: number;
    max: number;
  }[];
  t.equal(inStatusSet(set, 404), true);
  t.equal(inStatusSet(set, 250), true);
  t.equal(inStatusSet(set, 303), false);
  t.equal(showStatusSet(set), '404, 2xx, 300-302');
});
