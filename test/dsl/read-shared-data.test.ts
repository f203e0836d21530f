import t from 'tap';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SharedData } from '../../model/plan/shared-data.js';
import { readSharedData } from '../../dsl/script/read-shared-data.js';

/** Every record as the sandbox decodes it: its bytes as code units, then JSON.parse. */
function records(table: SharedData): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < table.count; i++) {
    const bytes = table.bytes.subarray(i === 0 ? 0 : table.ends[i - 1], table.ends[i]);
    t.ok(
      bytes.every((b) => b < 0x80),
      'ASCII only',
    );
    out.push(JSON.parse(String.fromCharCode(...bytes)));
  }
  return out;
}

const root = mkdtempSync(join(tmpdir(), 'barrage-shared-'));
const folder = join(root, 'scenario');
mkdirSync(folder);
writeFileSync(join(root, 'secret.json'), '[1]');
symlinkSync(join(root, 'secret.json'), join(folder, 'link.json'));
const values = [{ name: 'zoë 日本', n: 1.5, nested: [true, null] }, 'text\u2028', 7, '\ud800'];
writeFileSync(join(folder, 'users.json'), JSON.stringify(values));
writeFileSync(join(folder, 'cities.csv'), '\ufeffcity,zip\n"Köln, DE",50667\n"a\nb",1\n');
writeFileSync(join(folder, 'object.json'), '{"users":[]}');
writeFileSync(join(folder, 'empty.json'), '[]');
writeFileSync(join(folder, 'latin1.json'), Buffer.from('["K\xf6ln"]', 'latin1'));
const where = { folder, shownDir: 'scenarios' };

t.test('JSON and CSV records decode to what the file holds', async (t) => {
  const read = readSharedData(
    [
      { name: 'users.json', kind: 'json' },
      { name: 'cities.csv', kind: 'csv' },
    ],
    where,
  );
  t.ok(read.ok);
  if (!read.ok) return;
  const [users, cities] = read.value as [SharedData, SharedData];
  t.same(records(users), values);
  t.ok(
    users.bytes.buffer instanceof SharedArrayBuffer &&
      users.ends.buffer instanceof SharedArrayBuffer,
  );
  t.same(cities.fields, ['city', 'zip']);
  t.same(records(cities), [
    ['Köln, DE', '50667'],
    ['a\nb', '1'],
  ]);
});

t.test('every bad file is refused at once, named as the scenario wrote it', async (t) => {
  const read = readSharedData(
    [
      { name: '../secret.json', kind: 'json' },
      { name: 'link.json', kind: 'json' },
      { name: 'missing.json', kind: 'json' },
      { name: 'object.json', kind: 'json' },
      { name: 'empty.json', kind: 'json' },
      { name: 'latin1.json', kind: 'json' },
      { name: '.', kind: 'json' },
    ],
    where,
  );
  t.notOk(read.ok);
  if (read.ok) return;
  t.same(
    read.error.map((e) => [e.source.kind === 'file' ? e.source.file : '', e.expected]),
    [
      ['secret.json', `a data file inside the scenario's folder (${folder})`],
      ['scenarios/link.json', `a data file inside the scenario's folder (${folder})`],
      ['scenarios/missing.json', 'an existing data file'],
      ['scenarios/object.json', 'a JSON array of records'],
      ['scenarios/empty.json', 'at least one record'],
      ['scenarios/latin1.json', 'a data file in UTF-8'],
      ['scenarios', 'a regular data file'],
    ],
  );
});
