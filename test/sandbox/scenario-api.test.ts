/**
 * The scenario API is written once, in sandbox/isolate/ (vu-api.ts and what it gathers), and
 * declared for scenario authors in scenarios/barrage.d.ts; dsl/script/sandbox-module.ts re-exports
 * it by name to a bundled scenario. This test holds the three to one list: the exports of the
 * d.ts's module 'barrage' (their kind, and the members of its objects and classes) are those of
 * the API a virtual user's context builds (the compiled bootstrap, evaluated in an isolate as the
 * sandbox evaluates it), and those sandbox-module.ts exports.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { isolatedVm } from '../../native/isolated-vm.js';
import { isolateSource } from '../../sandbox/isolate-source.js';
import { webHost } from '../../sandbox/web-host.js';

/** An export: its kind, and its members' names (null: not compared, an index signature). */
type Described = Record<string, { kind: string; members: string[] | null }>;

const memberNames = (members: readonly ts.Node[]): string[] =>
  members
    .filter((m) => !ts.isConstructorDeclaration(m) && !ts.isConstructSignatureDeclaration(m))
    .map((m) => (m as ts.NamedDeclaration).name?.getText() ?? '')
    .filter((name) => name !== '')
    .sort();

const exported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The values the d.ts's module 'barrage' exports. */
function declared(): Described {
  const file = 'scenarios/barrage.d.ts';
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const module = source.statements.find(ts.isModuleDeclaration);
  const body = module?.body;
  if (body === undefined || !ts.isModuleBlock(body))
    throw new Error(`${file}: no module 'barrage'`);
  const out: Described = {};
  for (const statement of body.statements.filter(exported)) {
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        out[d.name.getText()] = {
          kind: 'object',
          members:
            d.type !== undefined && ts.isTypeLiteralNode(d.type)
              ? memberNames(d.type.members)
              : null,
        };
    else if (ts.isFunctionDeclaration(statement) && statement.name !== undefined)
      out[statement.name.text] = { kind: 'function', members: [] };
    else if (ts.isClassDeclaration(statement) && statement.name !== undefined)
      out[statement.name.text] = { kind: 'class', members: memberNames(statement.members) };
  }
  return out;
}

/** Describes the API in the isolate: each export's kind, and its members (a class's instance's). */
const DESCRIBE = `(api) => {
  const kindOf = (v) => typeof v !== 'function' ? typeof v
    : /^class[\\s{]/.test(Function.prototype.toString.call(v)) ? 'class' : 'function';
  const membersOf = (v, name) => {
    if (kindOf(v) === 'class') {
      const keys = [...Object.keys(new v('probe_' + name)), ...Object.getOwnPropertyNames(v.prototype)];
      return [...new Set(keys)].filter((k) => k !== 'constructor').sort();
    }
    return v !== null && typeof v === 'object' ? Object.keys(v).sort() : [];
  };
  const out = {};
  for (const name of Object.keys(api)) out[name] = { kind: kindOf(api[name]), members: membersOf(api[name], name) };
  globalThis.described = JSON.stringify(out);
  return {};
}`;

/** The API a virtual user's context builds (sandbox/isolate/bootstrap.ts). */
function built(): Described {
  const ivm = isolatedVm();
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  try {
    const context = isolate.createContextSync();
    const reference = { reference: true } as const;
    const post = context.evalSync('() => undefined', reference);
    const factory = context.evalSync(DESCRIBE, reference);
    context.evalClosureSync(
      isolateSource('bootstrap'),
      [
        post.derefInto(),
        new ivm.Callback(() => undefined),
        factory.derefInto(),
        0,
        undefined,
        new ivm.ExternalCopy([]).copyInto(),
        new ivm.Callback(webHost),
        '{}',
      ],
      { timeout: 1000 },
    );
    return JSON.parse(context.evalSync('described', { timeout: 1000 }) as string) as Described;
  } finally {
    isolate.dispose();
  }
}

/** The names dsl/script/sandbox-module.ts exports. */
function reexported(): string[] {
  const file = 'dsl/script/sandbox-module.ts';
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  return source.statements
    .filter(ts.isVariableStatement)
    .filter(exported)
    .flatMap((s) => s.declarationList.declarations.map((d) => d.name.getText()))
    .sort();
}

t.test('barrage.d.ts declares the API the isolate builds, no more, no less', async (t) => {
  const declaration = declared();
  const api = built();
  t.same(Object.keys(api).sort(), Object.keys(declaration).sort(), 'the same exports');
  for (const [name, { kind, members }] of Object.entries(declaration)) {
    const actual = api[name];
    if (actual === undefined) continue;
    t.equal(actual.kind, kind, `${name}: a ${kind}`);
    if (members !== null) t.same(actual.members, members, `${name}: the same members`);
  }
});

t.test('sandbox-module.ts re-exports every name of the API', async (t) => {
  t.same(reexported(), Object.keys(declared()).sort());
});
