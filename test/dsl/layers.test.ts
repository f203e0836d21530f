import t from 'tap';
import type { Source } from '../../dsl/issues.js';
import { findForbiddenKeys, mergeLayers, type Layer } from '../../dsl/layers.js';

function layer(name: Layer['name'], values: Record<string, unknown>, secret: string[] = []): Layer {
  return {
    name,
    values,
    sourceOf: (path): Source =>
      name === 'file'
        ? { kind: 'file', file: 'f.yaml', line: path.length }
        : name === 'env'
          ? { kind: 'env', name: `ENV_${String(path[0])}` }
          : { kind: 'flag', flag: `--${String(path[0])}` },
    secretPaths: new Set(secret),
    secretValues: new Set(),
  };
}

t.test('flags > env > file, and provenance follows the winner', async (t) => {
  const { raw, provenance } = mergeLayers([
    layer('flags', { concurrency: 9 }),
    layer('env', { concurrency: 7, rate: 3 }),
    layer('file', { concurrency: 5, rate: 1, duration: '10s' }),
  ]);
  t.same(raw, { concurrency: 9, rate: 3, duration: '10s' });
  t.same(provenance.sourceOf(['concurrency']), { kind: 'flag', flag: '--concurrency' });
  t.same(provenance.sourceOf(['rate']), { kind: 'env', name: 'ENV_rate' });
  t.match(provenance.sourceOf(['duration']), { kind: 'file' });
  t.same(provenance.sourceOf(['timeout']), { kind: 'default' });
});

t.test('headers and report merge by key; other mappings are replaced whole', async (t) => {
  const { raw, provenance } = mergeLayers([
    layer('flags', {
      headers: { 'X-A': 'flag' },
      auth: { type: 'bearer', token: 't' },
      report: { json: 'a.json' },
    }),
    layer('file', {
      headers: { 'X-A': 'file', 'X-B': 'file' },
      auth: { type: 'basic', username: 'u', password: 'p' },
      report: { html: 'r.html' },
    }),
  ]);
  t.same(raw.headers, { 'X-A': 'flag', 'X-B': 'file' });
  t.same(raw.auth, { type: 'bearer', token: 't' });
  t.same(raw.report, { html: 'r.html', json: 'a.json' });
  t.same(provenance.sourceOf(['headers', 'X-B']), { kind: 'file', file: 'f.yaml', line: 2 });
  t.same(provenance.sourceOf(['headers', 'X-A']), { kind: 'flag', flag: '--headers' });
});

t.test('thresholds accumulate file, env, flags, in that order', async (t) => {
  const { raw, provenance } = mergeLayers([
    layer('flags', { thresholds: ['c'] }),
    layer('env', { thresholds: ['b1', 'b2'] }),
    layer('file', { thresholds: ['a'] }),
  ]);
  t.same(raw.thresholds, ['a', 'b1', 'b2', 'c']);
  t.match(provenance.sourceOf(['thresholds', 0]), { kind: 'file' });
  t.match(provenance.sourceOf(['thresholds', 2]), { kind: 'env' });
  t.match(provenance.sourceOf(['thresholds', 3]), { kind: 'flag' });
});

t.test('interpolated values are marked through the merge', async (t) => {
  const { provenance } = mergeLayers([
    layer('file', { auth: { client_secret: 'x' }, target: 'y' }, ['auth.client_secret']),
  ]);
  t.ok(provenance.isInterpolated(['auth', 'client_secret']));
  t.notOk(provenance.isInterpolated(['target']));
});

t.test('__proto__, constructor and prototype keys are refused anywhere', async (t) => {
  const values = JSON.parse(
    '{"endpoints":[{"url":"/","headers":{"__proto__":{"polluted":true}}}],"constructor":1}',
  ) as Record<string, unknown>;
  const issues = findForbiddenKeys(layer('file', values));
  t.same(
    issues.map((i) => i.path).sort(),
    [['constructor'], ['endpoints', 0, 'headers', '__proto__']].sort(),
  );
  t.ok(issues.every((i) => i.code === 'forbidden_key'));
  const { raw } = mergeLayers([layer('file', { a: 1 })]);
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched');
  t.equal(Object.getPrototypeOf(raw), Object.prototype);
});
