/**
 * Bytes from a TypeScript scenario reach the server byte-exact, as a user runs it (the built CLI,
 * spawned, the scenario type-checked against barrage.d.ts): a binary file imported
 * `with { type: 'bytes' }` (every byte value 0–255, not UTF-8) sent as a multipart file, as a raw
 * body, as an ArrayBuffer, through a DataView of part of it, several files under one field name,
 * and in http.batch(); an express app with multer keeps each upload's size and sha256.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { binaryFixture, sha256, uploadApp } from '../helpers/upload-app.js';

const PHOTO_SIZE = 12_420;
const ITERATIONS = 3;

const SCENARIO = `import { http, check } from 'barrage';
import photo from './photo.png' with { type: 'bytes' };

export const options = { concurrency: 1, requests: ${ITERATIONS} };

const whole: ArrayBuffer = photo.buffer.slice(photo.byteOffset, photo.byteOffset + photo.byteLength) as ArrayBuffer;

export default async function (): Promise<void> {
  const multipart = await http.post('/upload', null, {
    multipart: {
      photo: { data: photo, filename: 'photo.png', contentType: 'image/png' },
      note: 'a field',
    },
  });
  check(multipart, { 'multipart 201': (r) => r.status === 201 });
  const raw = await http.post('/raw', photo, { headers: { 'content-type': 'image/png' } });
  check(raw, { 'raw 201': (r) => r.status === 201 });
  await http.post('/raw', whole, { name: 'arraybuffer' });
  await http.post('/raw', new DataView(whole, 100, 1000), { name: 'dataview' });
  await http.post('/upload', null, {
    name: 'repeated',
    multipart: { photos: [photo, { data: new Uint8Array(whole, 10, 20), filename: 'part.bin' }], tag: ['a', 'b'] },
  });
  await http.batch([
    ['POST', '/raw', new Uint16Array(whole, 0, 6210), { name: 'batch-raw' }],
    ['POST', '/upload', null, { name: 'batch-multipart', multipart: { one: whole } }],
  ]);
}
`;

t.test('a scenario sends bytes as they are, in multipart files and raw bodies', async (t) => {
  const app = await uploadApp(t);
  const dir = mkdtempSync(join(tmpdir(), 'barrage-binary-'));
  const photo = binaryFixture(PHOTO_SIZE);
  writeFileSync(join(dir, 'photo.png'), photo);
  writeFileSync(join(dir, 'upload.ts'), SCENARIO);
  const result = await runCli(
    ['run', '--scenario', join(dir, 'upload.ts'), '--target', app.url, '--json-output'],
    { typecheck: true, killAfterMs: 110_000 },
  );
  t.equal(result.code, 0, result.stderr);
  t.ok(new Set(photo).size === 256, 'the fixture holds every byte value');

  const whole = { size: PHOTO_SIZE, sha256: sha256(photo) };
  const slice = (from: number, to: number) => ({
    size: to - from,
    sha256: sha256(photo.subarray(from, to)),
  });
  const raws = app.uploads.filter((u) => u.raw !== undefined);
  const files = app.uploads.flatMap((u) => u.files);
  t.equal(app.uploads.length, ITERATIONS * 7, 'every request arrived');

  const photos = files.filter((f) => f.field === 'photo');
  t.equal(photos.length, ITERATIONS);
  for (const f of photos)
    t.same(f, { field: 'photo', filename: 'photo.png', contentType: 'image/png', ...whole });

  const rawSeen = raws.map((u) => ({ size: u.raw!.size, sha256: u.raw!.sha256 }));
  t.equal(
    rawSeen.filter((r) => r.sha256 === whole.sha256).length,
    ITERATIONS * 3,
    'a Uint8Array, an ArrayBuffer and a whole Uint16Array arrive whole',
  );
  t.equal(
    rawSeen.filter((r) => r.sha256 === slice(100, 1100).sha256).length,
    ITERATIONS,
    'a DataView sends only the bytes it covers',
  );
  t.equal(raws.filter((u) => u.raw!.type === 'image/png').length, ITERATIONS);

  const repeated = app.uploads.filter((u) => u.files.some((f) => f.field === 'photos'));
  t.equal(repeated.length, ITERATIONS);
  for (const u of repeated) {
    t.same(
      u.files.map((f) => ({
        field: f.field,
        filename: f.filename,
        size: f.size,
        sha256: f.sha256,
      })),
      [
        { field: 'photos', filename: 'blob', ...whole },
        { field: 'photos', filename: 'part.bin', ...slice(10, 30) },
      ],
      'several files under one field name, in order',
    );
    t.same(u.fields, { tag: ['a', 'b'] }, 'a repeated field arrives as a list');
  }
  const batched = files.filter((f) => f.field === 'one');
  t.equal(batched.length, ITERATIONS);
  for (const f of batched) t.same({ size: f.size, sha256: f.sha256 }, whole);

  const report = JSON.parse(result.stdout) as { total: number };
  t.equal(report.total, app.uploads.length, 'what barrage counted is what the server got');
});
