/**
 * YAML multipart as a user runs it (the built CLI, spawned) against an express app with multer:
 * a file per user, its path from a feeder field, arriving with each user's own sha256; several
 * values and files under one field name; and the paths a run may not read (outside the
 * configuration's folder, or from a placeholder no feeder fills) refused before anything is sent.
 */
import t from 'tap';
import { runCli } from '../helpers/run-cli.js';
import { binaryFixture, sha256, uploadApp } from '../helpers/upload-app.js';

const USERS = ['ann', 'bob', 'cy'] as const;
/** Each user's photo: bytes of every value, a size (and so a digest) of its own. */
const PHOTOS = new Map(USERS.map((user, i) => [user, binaryFixture(4000 + 1000 * i)]));
const REQUESTS = 6;

t.test('a file per user from a feeder field, and repeated fields', async (t) => {
  const app = await uploadApp(t);
  const a = binaryFixture(300);
  const b = binaryFixture(700);
  const dir = t.testdir({
    'load.yaml': `target: ${app.url}
concurrency: 1
requests: ${REQUESTS}
feeder: { file: users.csv, per: iteration }
endpoints:
  - name: upload
    url: /upload
    method: POST
    multipart:
      user: '{{user}}'
      photo: { file: 'photos/{{photo}}', content_type: image/png }
      tag: [red, green]
      docs: [{ file: docs/a.bin }, { file: docs/b.bin, filename: second.bin }]
`,
    'users.csv': `user,photo\n${USERS.map((u) => `${u},${u}.png`).join('\n')}\n`,
    photos: Object.fromEntries(USERS.map((u) => [`${u}.png`, Buffer.from(PHOTOS.get(u)!)])),
    docs: { 'a.bin': Buffer.from(a), 'b.bin': Buffer.from(b) },
  });
  const validated = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(validated.code, 0, validated.stderr);
  t.match(validated.stdout, 'photo ← photos/{{photo}} (image/png)', 'validate shows the path');
  const result = await runCli(['run', 'load.yaml', '--json-output', '--no-dashboard'], {
    cwd: dir,
    killAfterMs: 60_000,
  });
  t.equal(result.code, 0, result.stderr);
  t.equal(app.uploads.length, REQUESTS, 'every request arrived');
  const users = new Set<string>();
  for (const upload of app.uploads) {
    const user = upload.fields.user as (typeof USERS)[number];
    users.add(user);
    const photo = PHOTOS.get(user)!;
    const files = upload.files.map((f) => [f.field, f.filename, f.size, f.sha256]);
    t.same(
      files,
      [
        ['photo', `${user}.png`, photo.length, sha256(photo)],
        ['docs', 'a.bin', a.length, sha256(a)],
        ['docs', 'second.bin', b.length, sha256(b)],
      ],
      `${user}: their own photo, then both docs under one name`,
    );
    t.same(upload.fields.tag, ['red', 'green'], 'a repeated field arrives as a list');
  }
  t.same([...users].sort(), [...USERS], 'every user uploaded');
  const report = JSON.parse(result.stdout) as { total: number };
  t.equal(report.total, REQUESTS);
});

t.test('paths a run may not read are refused before anything is sent', async (t) => {
  const app = await uploadApp(t);
  const cases: [string, string, string, RegExp][] = [
    [
      'a record naming a file outside the folder',
      'photos/{{photo}}',
      'user,photo\nann,ann.png\nbob,../../outside.png\n',
      /load\.yaml:\d+:\d+: endpoints\[0\]\.multipart\.photo\.file: expected a file inside the configuration's folder .*, got "photos\/\.\.\/\.\.\/outside\.png" \(feeder record 2\): outside it/,
    ],
    [
      'a record naming a missing file',
      'photos/{{photo}}',
      'user,photo\nann,ann.png\nbob,nope.png\n',
      /endpoints\[0\]\.multipart\.photo\.file: expected an existing multipart file, got "photos\/nope\.png" \(feeder record 2\): no such file/,
    ],
    [
      'a placeholder no feeder field fills',
      'photos/{{picture}}',
      'user,photo\nann,ann.png\n',
      /endpoints\[0\]\.multipart\.photo\.file: expected placeholders that are fields of the feeder \(user, photo\).*, got "photos\/\{\{picture\}\}": \{\{picture\}\}/,
    ],
  ];
  for (const [name, file, csv, message] of cases) {
    const dir = t.testdir({
      'load.yaml': `target: ${app.url}\nrequests: 1\nfeeder: { file: users.csv }\nendpoints:\n  - url: /upload\n    method: POST\n    multipart:\n      photo: { file: '${file}' }\n`,
      'users.csv': csv,
      photos: { 'ann.png': 'x' },
    });
    const result = await runCli(['run', 'load.yaml', '--no-dashboard'], { cwd: dir });
    t.equal(result.code, 1, `${name}: exit 1`);
    t.match(result.stderr, message, name);
    t.notMatch(result.stderr, /\n\s+at /, `${name}: no stack`);
  }
  t.equal(app.uploads.length, 0, 'nothing was sent');
});
