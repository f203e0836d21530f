import t from 'tap';
import {
  EXTRACT_REFUSED,
  headerValue,
  queryJson,
  runExtractors,
} from '../../runtime/vars/extract.js';
import { VariableStore } from '../../runtime/vars/variable-store.js';

t.test('JSONPath extractors read the body; non-strings are stored as JSON', async (t) => {
  const vars = new VariableStore();
  const body = JSON.stringify({
    access_token: 'tok',
    items: [{ id: 3 }, { id: 4 }],
    meta: { n: 2 },
  });
  const found = runExtractors(
    [
      { variable: 'token', from: 'json', path: '$.access_token' },
      { variable: 'first', from: 'json', path: '$.items[0].id' },
      { variable: 'all', from: 'json', path: '$.items' },
      { variable: 'none', from: 'json', path: '$.missing' },
    ],
    body,
    null,
    vars,
  );
  t.equal(found, 3);
  t.same(vars.entries(), { token: 'tok', first: '3', all: '[{"id":3},{"id":4}]' });
});

t.test('header extractors are case-insensitive; bad JSON extracts nothing', async (t) => {
  const vars = new VariableStore();
  const headers = [
    Buffer.from('X-Request-Id'),
    Buffer.from('r-1'),
    Buffer.from('Content-Type'),
    Buffer.from('text/plain'),
  ];
  t.equal(headerValue(headers, 'x-request-id'), 'r-1');
  t.equal(
    runExtractors(
      [
        { variable: 'rid', from: 'header', header: 'x-request-id' },
        { variable: 'j', from: 'json', path: '$.a' },
      ],
      '{not json',
      headers,
      vars,
    ),
    1,
  );
  t.same(vars.entries(), { rid: 'r-1' });
  t.equal(queryJson({ a: null }, '$.a'), undefined);
});

t.test('script segments never run (eval: false)', async (t) => {
  t.throws(() => queryJson({ a: [1] }, '$.a[?(@ > 0)]'), /Eval/);
});

t.test('a value the variable store refuses stops the extractors: EXTRACT_REFUSED', async (t) => {
  const vars = new VariableStore();
  const body = JSON.stringify({ a: 'x'.repeat(600_000), b: 'y'.repeat(600_000), c: 'z' });
  const found = runExtractors(
    [
      { variable: 'a', from: 'json', path: '$.a' },
      { variable: 'b', from: 'json', path: '$.b' },
      { variable: 'c', from: 'json', path: '$.c' },
    ],
    body,
    null,
    vars,
  );
  t.equal(found, EXTRACT_REFUSED);
  t.same(Object.keys(vars.entries()), ['a']);
});
