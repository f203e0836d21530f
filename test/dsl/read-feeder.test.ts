import t, { type Test } from 'tap';
import { join } from 'node:path';
import { readFeeder } from '../../dsl/feeder/read-feeder.js';
import { recordReader } from '../../runtime/feeder/feeder.js';
import { rowsOf } from '../helpers/feeder-table.js';

function read(t: Test, name: string, text: string, format?: 'csv' | 'json' | 'ndjson') {
  const dir = t.testdir({ [name]: text });
  return readFeeder({ path: join(dir, name), shown: name, format });
}

t.test('CSV with quotes, embedded commas and newlines, BOM', async (t) => {
  const result = read(
    t,
    'users.csv',
    '\uFEFFname,bio\nada,"likes ""math"", engines"\nbob,"two\nlines"\n',
  );
  t.match(result, { ok: true, value: { records: { fields: ['name', 'bio'], count: 2 } } });
  if (result.ok)
    t.same(rowsOf(result.value.records), [
      { name: 'ada', bio: 'likes "math", engines' },
      { name: 'bob', bio: 'two\nlines' },
    ]);
});

t.test('JSON arrays and NDJSON; values become strings', async (t) => {
  const json = read(t, 'u.json', '[{"id": 1, "ok": true, "tags": ["a"]}, {"id": 2}]');
  if (json.ok)
    t.same(rowsOf(json.value.records), [{ id: '1', ok: 'true', tags: '["a"]' }, { id: '2' }]);
  const nd = read(t, 'u.ndjson', '{"id": "a"}\n\n{"id": "b"}\n');
  if (nd.ok)
    t.same(
      rowsOf(nd.value.records).map((r) => r.id),
      ['a', 'b'],
    );
  const forced = read(t, 'data.txt', '{"id": "x"}\n', 'ndjson');
  t.ok(forced.ok, 'format overrides the extension');
});

t.test('bad feeders are errors naming the file and line', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['short.csv', 'a,b\n1,2\n3\n', /expect 2, got 1 on line 3/],
    ['bad.ndjson', '{"a":1}\n{oops\n', /JSON/],
    ['obj.json', '{"a": 1}', /a JSON array of objects/],
    ['mixed.json', '[{"a":1}, 7]', /an object at index 1/],
    ['empty.csv', 'a,b\n', /at least one record/],
    ['data.xml', '<a/>', /a \.csv, \.json or \.ndjson file/],
  ];
  for (const [name, text, message] of cases) {
    const result = read(t, name, text);
    t.notOk(result.ok, name);
    if (!result.ok)
      t.match(`${result.error[0]?.expected} ${result.error[0]?.actual}`, message, name);
  }
  const line = read(t, 'bad.ndjson', '{"a":1}\n{oops\n');
  if (!line.ok) t.match(line.error[0]?.source, { file: 'bad.ndjson', line: 2 });
  const missing = readFeeder({
    path: '/nonexistent/users.csv',
    shown: 'users.csv',
    format: undefined,
  });
  t.match(missing, { ok: false, error: [{ code: 'file_not_found', actual: 'no such file' }] });
});

t.test(
  'records are stored as one shared table: fields once, values as bytes and ends',
  async (t) => {
    const result = read(t, 'users.csv', 'name,city\nada,Zürich\nbob,\n');
    if (!result.ok) return t.fail('read');
    const table = result.value.records;
    t.same(table.fields, ['name', 'city'], 'field names once');
    t.equal(table.count, 2);
    t.ok(table.bytes.buffer instanceof SharedArrayBuffer, 'bytes shared between threads');
    t.ok(table.ends.buffer instanceof SharedArrayBuffer, 'ends shared between threads');
    t.same([...table.ends], [3, 10, 13, 13], 'one end per value, in bytes (ü takes 2)');
    t.equal(Buffer.from(table.bytes).toString('utf8'), 'adaZürichbob', 'values back to back');
    t.equal(table.kinds, undefined, 'every CSV record has every field, all text');
    const json = read(t, 'u.ndjson', '{"a": "1"}\n{"b": "2"}\n');
    if (!json.ok) return t.fail('read');
    t.same(json.value.records.fields, ['a', 'b']);
    t.same([...json.value.records.kinds!], [0, 1, 1, 0], 'absent fields are flagged, not empty');
    t.same(rowsOf(json.value.records), [{ a: '1' }, { b: '2' }]);
    const typed = read(
      t,
      't.json',
      '[{"id": 1070, "name": "x", "tags": ["a"], "on": true, "no": null}]',
    );
    if (!typed.ok) return t.fail('read');
    t.same(
      [...typed.value.records.kinds!],
      [2, 0, 2, 2, 2],
      "a JSON record's non-strings are typed",
    );
    const record = recordReader(typed.value.records)(0);
    t.same(record.values, ['1070', 'x', '["a"]', 'true', 'null']);
    t.same(record.typed, [true, false, true, true, true]);
  },
);
