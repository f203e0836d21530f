import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_CONFIG_BYTES,
  MAX_NESTING,
  parseSourceText,
  readSourceFile,
} from '../../dsl/sources/file-source.js';

t.test('YAML and JSON parse to the same value, with positions', async (t) => {
  const yaml = parseSourceText(
    'a.yaml',
    'target: http://x\nconcurrency: 5\nendpoints:\n  - url: /a\n    weight: 2\n',
  );
  const json = parseSourceText(
    'a.json',
    '{"target": "http://x", "concurrency": 5, "endpoints": [{"url": "/a", "weight": 2}]}',
  );
  t.ok(yaml.ok && json.ok);
  if (!yaml.ok || !json.ok) return;
  t.same(yaml.value.value, json.value.value);
  t.same(yaml.value.locate(['concurrency']), { kind: 'file', file: 'a.yaml', line: 2, column: 14 });
  t.same(yaml.value.locate(['endpoints', 0, 'weight']), {
    kind: 'file',
    file: 'a.yaml',
    line: 5,
    column: 13,
  });
  t.same(yaml.value.locate(['endpoints', 0, 'weight'], true), {
    kind: 'file',
    file: 'a.yaml',
    line: 5,
    column: 5,
  });
  t.same(
    yaml.value.locate(['nope', 'deeper']),
    { kind: 'file', file: 'a.yaml', line: 1, column: 1 },
    'unknown paths fall back to the nearest parent',
  );
});

t.test('malformed YAML and JSON name the line', async (t) => {
  const yaml = parseSourceText('bad.yaml', 'target: http://x\nendpoints: [\n  {url: /a\n');
  t.notOk(yaml.ok);
  if (!yaml.ok) {
    t.equal(yaml.error[0]?.code, 'parse_error');
    t.match(yaml.error[0]?.source, { kind: 'file', file: 'bad.yaml', line: Number });
  }
  const json = parseSourceText('bad.json', '{"a": 1,\n "b": [1, 2,}\n');
  t.notOk(json.ok);
  if (!json.ok) t.match(json.error[0], { code: 'parse_error', source: { line: 2 } });
  const dup = parseSourceText('dup.yaml', 'rate: 1\nrate: 2\n');
  t.notOk(dup.ok);
  if (!dup.ok)
    t.match(dup.error[0], { code: 'parse_error', actual: /unique/, source: { line: 2 } });
});

t.test('an alias bomb is refused with a clear message, not expanded', async (t) => {
  const bomb = [
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  ].join('\n');
  const result = parseSourceText('bomb.yaml', bomb);
  t.notOk(result.ok);
  if (!result.ok) t.match(result.error[0], { code: 'alias_limit', expected: /alias/ });
});

t.test('deep nesting is bounded, never a RangeError', async (t) => {
  for (const text of [
    'a: ' + '['.repeat(200) + ']'.repeat(200),
    '['.repeat(100_000) + ']'.repeat(100_000),
    'a:\n' +
      Array.from({ length: MAX_NESTING + 2 }, (_, i) => `${'  '.repeat(i + 1)}k:`).join('\n') +
      ' 1',
  ]) {
    const result = parseSourceText('deep.yaml', text);
    t.notOk(result.ok);
    if (!result.ok) t.equal(result.error[0]?.code, 'too_deep');
  }
  const fine = parseSourceText(
    'ok.yaml',
    'a: ' + '['.repeat(MAX_NESTING - 1) + ']'.repeat(MAX_NESTING - 1),
  );
  t.ok(fine.ok, `${MAX_NESTING} levels are accepted`);
});

t.test('missing, oversized and directory inputs', async (t) => {
  const dir = t.testdir({ 'small.yaml': 'rate: 5\n', sub: {} });
  const missing = readSourceFile(join(dir, 'nope.yaml'));
  t.match(missing, { ok: false, error: [{ code: 'file_not_found', actual: 'no such file' }] });
  const big = join(dir, 'big.yaml');
  writeFileSync(big, `# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`);
  t.match(readSourceFile(big), {
    ok: false,
    error: [{ code: 'file_too_large', expected: /at most 4 MiB/ }],
  });
  t.match(readSourceFile(join(dir, 'sub')), { ok: false, error: [{ code: 'file_unreadable' }] });
  t.match(readSourceFile(join(dir, 'small.yaml')), { ok: true, value: { value: { rate: 5 } } });
});

t.test('an empty file is an empty mapping', async (t) => {
  t.match(parseSourceText('empty.yaml', ''), { ok: true, value: { value: {} } });
});
