// Redaction must stay linear in the text: URL userinfo is found by a scan (a regular expression
// looking for a scheme at every position backtracked over long runs of letters: 32 s for a
// 64 K-letter name), and a message is cut to a few KiB before it is redacted, never showing
// part of a secret or of a password the cut separated from its "@".
import t from 'tap';
import fc from 'fast-check';
import type { Layer } from '../../dsl/layers.js';
import { MAX_MESSAGE_CHARS, SecretSet } from '../../dsl/secret-set.js';
import { redactByShape, userinfoIn } from '../../dsl/secrets.js';

/** The regular expression the scan replaced: the oracle of what userinfo is. */
const OLD_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>\\]+@/gi;

t.test('the scan finds what the regular expression found', async (t) => {
  const piece = fc.constantFrom('http', 'a', 'Z9', '://', ':', '@', '/', ' ', '"', '+', '1', 'x.y');
  let runs = 0;
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
      const text = parts.join('');
      const expected = [...text.matchAll(OLD_USERINFO)].map((m) => m[0].slice(m[1]!.length, -1));
      if (JSON.stringify(userinfoIn(text)) !== JSON.stringify(expected))
        throw new Error(`${JSON.stringify(text)}: ${JSON.stringify(userinfoIn(text))}`);
      runs++;
    }),
    { numRuns: 5000 },
  );
  t.equal(runs, 5000);
});

t.test('a megabyte of letters, digits or schemes is redacted in one pass', async (t) => {
  const texts = [
    'a'.repeat(1 << 20),
    '7'.repeat(1 << 20),
    'ab://'.repeat(200_000),
    `http://${'u'.repeat(1 << 20)}`,
  ];
  for (const text of texts) t.equal(redactByShape(text), text, `${text.slice(0, 8)}… unchanged`);
  t.equal(redactByShape(`${'a'.repeat(1 << 20)}://u:p@h`), `${'a'.repeat(1 << 20)}://[redacted]@h`);
});

t.test('a long message is cut before redaction, a secret at the cut hidden whole', async (t) => {
  const secrets = new SecretSet();
  const layer: Layer = {
    name: 'file',
    values: { auth: { type: 'bearer', token: 'tok-secret-5678' } },
    sourceOf: () => ({ kind: 'default' }),
    secretPaths: new Set(),
    secretValues: new Set(),
  };
  secrets.addLayer(layer);
  const across = `${'x'.repeat(MAX_MESSAGE_CHARS - 5)}tok-secret-5678${'y'.repeat(1 << 20)}`;
  const shown = secrets.redactMessage(across);
  t.ok(shown.length < MAX_MESSAGE_CHARS + 100, 'cut to a few KiB');
  t.notMatch(shown, /tok-/, 'no part of the secret');
  t.match(shown, /\[redacted\]/);
  t.match(shown, /more characters not shown\)$/);
  const url = `${'x'.repeat(MAX_MESSAGE_CHARS - 20)} http://admin:hunter2-long-password@host/`;
  t.notMatch(secrets.redactMessage(url + 'z'.repeat(10_000)), /admin|hunter/, 'open url cut');
  t.equal(secrets.redactMessage('short tok-secret-5678'), 'short [redacted]');
});
