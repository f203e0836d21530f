/**
 * dist/ ships the isolate's sources compiled at build (scripts/bundle-options.mjs's plugin), the
 * way sandbox/isolate-source.ts compiles them from the tree when running from sources: the texts
 * in the built bundle are those the tree compiles to now (a dist/ older than the tree fails here,
 * as the schema's freshness test fails a stale barrage.schema.json), and no built file compiles
 * them at run time.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ISOLATE_ENTRIES, isolateSource } from '../../sandbox/isolate-source.js';

const DIST = join(import.meta.dirname, '../../dist');
const files = readdirSync(DIST)
  .filter((f) => f.endsWith('.js'))
  .map((f) => ({ name: f, text: readFileSync(join(DIST, f), 'utf8') }));

/** The bundle's table of compiled sources, read by the TypeScript parser (escapes decoded). */
function shipped(): Record<string, string> {
  const file = files.find((f) => /var SOURCES\d* = \{/.test(f.text));
  if (file === undefined) throw new Error('no compiled isolate sources in dist/');
  const source = ts.createSourceFile(file.name, file.text, ts.ScriptTarget.Latest, true);
  const out: Record<string, string> = {};
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      /^SOURCES\d*$/.test(node.name.getText()) &&
      node.initializer !== undefined &&
      ts.isObjectLiteralExpression(node.initializer)
    )
      for (const p of node.initializer.properties)
        if (ts.isPropertyAssignment(p) && ts.isStringLiteralLike(p.initializer))
          out[p.name.getText().replace(/^["']|["']$/g, '')] = p.initializer.text;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

t.test('dist/ holds every isolate entry as the tree compiles it', async (t) => {
  const table = shipped();
  t.same(Object.keys(table).sort(), Object.keys(ISOLATE_ENTRIES).sort(), 'every entry');
  for (const entry of Object.keys(ISOLATE_ENTRIES) as (keyof typeof ISOLATE_ENTRIES)[])
    t.ok(table[entry] === isolateSource(entry), `${entry}: the same text (run npm run build)`);
});

t.test('no built file compiles isolate sources when it runs', async (t) => {
  t.same(
    files.filter((f) => f.text.includes('compileIsolateSource')).map((f) => f.name),
    [],
  );
});
