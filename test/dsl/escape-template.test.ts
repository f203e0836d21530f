import fc from 'fast-check';
import t from 'tap';
import { escapeTemplate } from '../../dsl/grammar/escape-template.js';
import { parseTemplate } from '../../dsl/grammar/placeholder.js';
import { escapeInterpolation, interpolateEnv } from '../../dsl/sources/interpolate.js';

/** Text rich in braces, backslashes and dollars, where escaping is hard. */
const tricky = fc.oneof(
  fc.string(),
  fc.string({
    unit: fc.constantFrom('{', '}', '\\', '$', '{{', '}}', '${', 'x', ' '),
    maxLength: 20,
  }),
);

t.test('recorded text parsed as a template renders as itself', async (t) => {
  const table = ['', 'plain', '{{user}}', '\\{{x}}', '{{{', '{"a":{{"b":1}}}', 'a\\', '{\\{{'];
  for (const text of table) {
    const parsed = parseTemplate(escapeTemplate(text));
    t.same(parsed, { ok: true, value: text === '' ? [] : [text] }, JSON.stringify(text));
  }
  fc.assert(
    fc.property(tricky, (text) => {
      const parsed = parseTemplate(escapeTemplate(text));
      if (!parsed.ok) return false;
      const literals = parsed.value.filter((p): p is string => typeof p === 'string');
      return literals.length === parsed.value.length && literals.join('') === text;
    }),
    { numRuns: 2000 },
  );
});

t.test('escaped ${ survives interpolation as written', async (t) => {
  fc.assert(
    fc.property(tricky, (text) => {
      const out = interpolateEnv(escapeInterpolation(text), {}, () => ({ kind: 'default' }));
      return out.value === text && out.issues.length === 0;
    }),
    { numRuns: 2000 },
  );
  t.equal(escapeInterpolation('a ${B} $${c}'), 'a $${B} $$${c}');
});
