import t, { type Test } from 'tap';
import { join } from 'node:path';
import { readFeeder } from '../../dsl/feeder/read-feeder.js';
import type { ColumnType } from '../../dsl/feeder/column-types.js';
import { recordReader } from '../../runtime/feeder/feeder.js';

function read(t: Test, text: string, types: Record<string, ColumnType>, name = 'u.csv') {
  const dir = t.testdir({ [name]: text });
  return readFeeder({ path: join(dir, name), shown: name, format: undefined, types });
}

t.test('typed CSV columns are checked and marked typed; others stay text', async (t) => {
  const result = read(t, 'id,admin,meta,name\n7,TRUE,"{""a"":[1]}",ada\n1e3,false,null,007\n', {
    id: 'number',
    admin: 'boolean',
    meta: 'json',
    name: 'string',
  });
  if (!result.ok) return t.fail(JSON.stringify(result.error));
  const at = recordReader(result.value.records);
  const rows = [0, 1].map((i) => {
    const r = at(i);
    return { values: [...r.values], typed: [...r.typed] };
  });
  t.same(rows, [
    { values: ['7', 'true', '{"a":[1]}', 'ada'], typed: [true, true, true, false] },
    { values: ['1000', 'false', 'null', '007'], typed: [true, true, true, false] },
  ]);
});

t.test('a value not of its type, or a type for no column, names the file and line', async (t) => {
  const cases: [string, Record<string, ColumnType>, object][] = [
    [
      'id\n1\n2\nabc\n',
      { id: 'number' },
      { line: 4, expected: 'a number in column id (feeder.types)', actual: '"abc"' },
    ],
    ['id\n\n1\n \n', { id: 'number' }, { line: 4, expected: 'a number in column id' }],
    ['ok\nyes\n', { ok: 'boolean' }, { line: 2, expected: 'true or false in column ok' }],
    ['j\n{x\n', { j: 'json' }, { line: 2, expected: 'a JSON value in column j' }],
    [
      'id,name\n1,a\n',
      { idd: 'number' },
      {
        line: 1,
        expected: 'feeder.types naming columns of the header row (id, name)',
        actual: 'idd',
      },
    ],
  ];
  for (const [text, types, want] of cases) {
    const result = read(t, text, types);
    t.notOk(result.ok, text);
    if (!result.ok) {
      const issue = result.error[0]!;
      const { line, ...rest } = want as { line: number };
      t.match(issue, { source: { kind: 'file', file: 'u.csv', line }, ...rest }, text);
    }
  }
});

t.test('types are for CSV only: JSON values keep their own', async (t) => {
  const result = read(t, '[{"id": 1}]', { id: 'number' }, 'u.json');
  t.match(result, {
    ok: false,
    error: [{ expected: /only with a CSV file/, actual: 'a json file' }],
  });
});

t.test("a column named after an object's property is plain text", async (t) => {
  const result = read(t, 'constructor,toString\nx,y\n', {});
  t.ok(result.ok, 'no column is typed by Object.prototype');
});
