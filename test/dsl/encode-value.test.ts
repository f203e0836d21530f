import t from 'tap';
import fc from 'fast-check';
import { encoderOf, formEncode } from '../../model/request/encode-value.js';

const SAMPLES = ['A&B=C', 'c++', 'product 1', 'café', 'a/b?c#d', '100%', 'say "hi"\n', '😀'];

t.test('each encoding, on the values users reported', async (t) => {
  const uri = encoderOf('uri');
  t.same(
    SAMPLES.map((s) => uri(s, false)),
    [
      'A%26B%3DC',
      'c%2B%2B',
      'product%201',
      'caf%C3%A9',
      'a%2Fb%3Fc%23d',
      '100%25',
      'say%20%22hi%22%0A',
      '%F0%9F%98%80',
    ],
  );
  t.same(
    SAMPLES.slice(0, 4).map((s) => formEncode(s)),
    ['A%26B%3DC', 'c%2B%2B', 'product+1', 'caf%C3%A9'],
  );
  t.equal(encoderOf('json')('say "hi"\n', false), 'say \\"hi\\"\\n');
  t.equal(encoderOf('json-value')('1070', true), '1070', 'a typed value is its JSON text');
  t.equal(encoderOf('json-value')('1070', false), '"1070"', 'text is a JSON string');
  t.equal(encoderOf('raw')('a&b', false), 'a&b');
  t.equal(encoderOf(undefined)('a&b', false), 'a&b', 'unset is raw');
  t.equal(uri('\ud800x', false), '%EF%BF%BDx', 'a lone surrogate is U+FFFD, not a throw');
});

t.test('every encoding decodes back to the value', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (s) => {
      const uri = decodeURIComponent(encoderOf('uri')(s, false));
      const form = new URLSearchParams(`a=${formEncode(s)}`).get('a');
      const json = JSON.parse(`"${encoderOf('json')(s, false)}"`) as string;
      const value = JSON.parse(encoderOf('json-value')(s, false)) as string;
      return uri === s && form === s && json === s && value === s;
    }),
  );
  t.pass('round trips');
});
