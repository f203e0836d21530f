// What the HTTP debug log and the sample failures show of a body: its first bytes as text, or
// `<N bytes binary>` when they are not UTF-8; a character cut by the capture is left out, not
// taken for binary; cutText never splits a character.
import t from 'tap';
import {
  CAPTURED_BODY_BYTES,
  captureBytes,
  captureChunks,
  captureRequestBody,
  cutText,
} from '../../runtime/http/body-capture.js';

t.test('request bodies as undici is given them', async (t) => {
  const long = 'é'.repeat(CAPTURED_BODY_BYTES);
  const cases: [string, unknown, object][] = [
    ['no body', null, { body: '', body_bytes: 0 }],
    ['a short string', 'a=1', { body: 'a=1', body_bytes: 3 }],
    ['bytes', Buffer.from('{"x":1}'), { body: '{"x":1}', body_bytes: 7 }],
    [
      'a long string: whole characters only',
      long,
      {
        body: 'é'.repeat(CAPTURED_BODY_BYTES / 2),
        body_truncated: true,
        body_bytes: long.length * 2,
      },
    ],
    [
      'binary bytes',
      Buffer.from([0xff, 0xfe, 0x00, 0x41]),
      { body: '<4 bytes binary>', body_bytes: 4 },
    ],
  ];
  for (const [name, body, expected] of cases) t.same(captureRequestBody(body), expected, name);
});

t.test('a character cut by the capture is not binary; one cut by the body is', async (t) => {
  const bytes = Buffer.concat([Buffer.alloc(CAPTURED_BODY_BYTES - 1, 0x61), Buffer.from('€')]);
  const head = captureBytes(bytes, bytes.length);
  t.equal(head.body, 'a'.repeat(CAPTURED_BODY_BYTES - 1));
  t.equal(head.body_truncated, true);
  const torn = Buffer.from('€').subarray(0, 2);
  t.same(captureBytes(torn, 2), { body: '<2 bytes binary>', body_bytes: 2 });
});

t.test('a response body from its kept chunks', async (t) => {
  const chunks = [Buffer.from('x'.repeat(1500)), Buffer.from('y'.repeat(1500)), Buffer.from('z')];
  const captured = captureChunks(chunks, 5000);
  t.equal(captured.body, 'x'.repeat(1500) + 'y'.repeat(CAPTURED_BODY_BYTES - 1500));
  t.same([captured.body_truncated, captured.body_bytes], [true, 5000]);
  t.same(captureChunks([Buffer.from('ok')], 2), { body: 'ok', body_bytes: 2 });
});

t.test('cutText cuts at a character boundary', async (t) => {
  t.equal(cutText('short', 1024), undefined);
  t.equal(cutText('a'.repeat(1024), 1024), undefined);
  t.equal(cutText('a'.repeat(1025), 1024), 'a'.repeat(1024));
  t.equal(cutText('a' + '€'.repeat(400), 1024), 'a' + '€'.repeat(341), '1 + 341 × 3 = 1024 bytes');
  t.equal(cutText('€'.repeat(400), 1024), '€'.repeat(341), 'the 342nd character would pass 1024');
});
