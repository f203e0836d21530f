// The CSV feeder is read in chunks (dsl/feeder/read-feeder.ts), and csv-parse keeps the bytes
// after a chunk's last whole token for the next write: wherever a boundary falls (inside a quoted
// field, between \r and \n, inside a multi-byte character), every record must come back as written.
import t from 'tap';
import { deepStrictEqual } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readFeeder } from '../../dsl/feeder/read-feeder.js';
import { rowsOf } from '../helpers/feeder-table.js';

/** A CSV field as written: quoted (quotes doubled) when it holds a comma, quote or line break. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const piece = fc.constantFrom('a', 'Z', '7', ' ', ',', '"', '\n', '\r\n', 'é', '€', '😀', 'xyz');
const value = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

t.test('every record comes back as written, whatever the chunk size', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'feed.csv');
  let runs = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 5 }).chain((width) =>
        fc.record({
          rows: fc.array(fc.array(value, { minLength: width, maxLength: width }), {
            minLength: 1,
            maxLength: 40,
          }),
          crlf: fc.boolean(),
          chunkBytes: fc.integer({ min: 1, max: 97 }),
        }),
      ),
      ({ rows, crlf, chunkBytes }) => {
        const width = rows[0]!.length;
        const names = Array.from({ length: width }, (_, c) => `c${c}`);
        const eol = crlf ? '\r\n' : '\n';
        const text = [names, ...rows].map((row) => row.map(field).join(',')).join(eol) + eol;
        writeFileSync(file, text);
        const result = readFeeder({ path: file, shown: 'feed.csv', format: 'csv', chunkBytes });
        if (!result.ok) throw new Error(JSON.stringify(result.error));
        const expected = rows.map((row) => Object.fromEntries(names.map((n, c) => [n, row[c]])));
        deepStrictEqual(rowsOf(result.value.records), expected);
        runs++;
      },
    ),
    { numRuns: 300 },
  );
  t.equal(runs, 300, 'each generated file read back intact');
});

t.test('a 3,000-row file of 55-byte rows crosses 64 KiB chunks intact', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'u.csv');
  const rows = Array.from({ length: 3000 }, (_, i) => [
    `user${String(i).padStart(5, '0')}`,
    `${'p'.repeat(20)}${String(i).padStart(5, '0')}`,
    `tag-${String(i % 97).padStart(3, '0')}-${'x'.repeat(9)}`,
  ]);
  const text = 'name,pass,tag\n' + rows.map((r) => r.join(',')).join('\n') + '\n';
  t.equal(Buffer.byteLength(text) > 2 * 64 * 1024, true, 'the file spans several chunks');
  writeFileSync(file, text);
  const result = readFeeder({ path: file, shown: 'u.csv', format: undefined });
  t.ok(result.ok, JSON.stringify(!result.ok && result.error));
  if (result.ok)
    t.same(
      rowsOf(result.value.records),
      rows.map(([name, pass, tag]) => ({ name, pass, tag })),
    );
});

t.test('a wide header (20,000 columns) is read in one pass', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'wide.csv');
  const names = Array.from({ length: 20_000 }, (_, c) => `f${c}`);
  const row = names.map((_, c) => String(c));
  writeFileSync(file, `${names.join(',')}\n${row.join(',')}\n${row.join(',')}\n`);
  const result = readFeeder({ path: file, shown: 'wide.csv', format: 'csv' });
  t.ok(result.ok);
  if (result.ok) {
    t.equal(result.value.records.fields.length, 20_000);
    t.equal(rowsOf(result.value.records)[1]!.f19999, '19999');
  }
});
