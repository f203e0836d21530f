// The type check of a TypeScript scenario (dsl/script/type-check.ts), in process: the examples
// pass, the floating-promise rule holds to typescript-eslint's exceptions, and the sandbox's
// globals are what the sandbox has.
import t, { type Test } from 'tap';
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeCheckScenario } from '../../dsl/script/type-check.js';
import type { ConfigIssue } from '../../dsl/issues.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** The problems of a scenario whose default function's body is `body`, in a folder of its own. */
async function check(t: Test, body: string, files: Record<string, string> = {}) {
  const source = `import { http, sleep, group, check, type Response } from 'barrage';
export default async function (): Promise<unknown> {
${body}
}
`;
  const dir = realpathSync(t.testdir({ 'load.ts': source, ...files }));
  return typeCheckScenario({ entry: join(dir, 'load.ts'), folder: dir, cwd: dir });
}

const lines = (issues: readonly ConfigIssue[]): string[] =>
  issues.map((i) => {
    const s = i.source;
    return s.kind === 'file' ? `${s.file}:${s.line}:${s.column}: ${i.actual}` : i.actual;
  });

t.test('every example under scenarios/ checks', async (t) => {
  const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  t.ok(examples.length >= 2, examples.join(', '));
  for (const file of examples) {
    const issues = await typeCheckScenario({
      entry: join(EXAMPLES, file),
      folder: realpathSync(EXAMPLES),
      cwd: EXAMPLES,
    });
    t.same(lines(issues), [], file);
  }
});

t.test('floating promises: flagged and not, as typescript-eslint decides', async (t) => {
  const flagged: readonly [string, string][] = [
    ["http.get('/x');", "http.get('/x')"],
    ['sleep(1);', 'sleep(1)'],
    ["group('g', async () => 1);", "group('g', async () => 1)"],
    ["http.get('/x').then(() => 1);", "http.get('/x').then(() => 1)"],
    ["http.get('/x').finally(() => 1);", "http.get('/x').finally(() => 1)"],
    ["Math.random() > 0.5 ? http.get('/a') : undefined;", 'Math.random() > 0.5'],
    ['(async () => { await sleep(1); })();', 'async'],
  ];
  for (const [statement, call] of flagged) {
    const issues = await check(t, `  ${statement}\n  return;`);
    t.equal(issues.length, 1, statement);
    t.match(issues[0]?.actual, call, statement);
    t.match(issues[0]?.source, { line: 3, column: 3 }, statement);
  }
  const handled = [
    "await http.get('/x');",
    "void http.get('/x');",
    "const r = http.get('/x'); await r;",
    "let r: Promise<Response>; r = http.get('/x'); await r;",
    "await Promise.all([http.get('/a'), http.get('/b')]);",
    "http.get('/x').catch(() => undefined);",
    "http.get('/x').then(() => 1, () => 2);",
    "return http.get('/x');",
    'check(1, { one: (v) => v === 1 });',
  ];
  for (const statement of handled)
    t.same(lines(await check(t, `  ${statement}\n  return;`)), [], statement);
});

t.test('the sandbox globals: web standards yes, Node and the DOM no', async (t) => {
  const available = [
    "const u = new URL('/a?b=1', 'http://x'); u.searchParams.get('b');",
    "new URLSearchParams({ q: 'a b' }).toString();",
    "new TextDecoder().decode(new TextEncoder().encode('é'));",
    "atob(btoa('x')); structuredClone({ a: 1 });",
    'crypto.randomUUID(); crypto.getRandomValues(new Uint8Array(4));',
    "console.log('x'); console.warn(1); console.error(2); console.info(3);",
    'Object.groupBy([1, 2], (n) => (n % 2 ? "odd" : "even"));',
    // k6/timers' functions, within the sandbox's limits (docs/scenarios.md).
    'clearTimeout(setTimeout(() => undefined, 10)); clearInterval(setInterval(() => 1, 10));',
  ];
  for (const statement of available)
    t.same(lines(await check(t, `  ${statement}\n  return;`)), [], statement);
  const absent = ['setImmediate', 'process', 'require', 'document', 'fetch', 'Buffer'];
  for (const name of absent) {
    const issues = await check(t, `  ${name};\n  return;`);
    t.match(lines(issues), [`load.ts:3:3: Cannot find name '${name}'`], name);
  }
});

t.test('text, bytes and JSON imports have the types the bundle gives them', async (t) => {
  const head = `import text from './a.txt' with { type: 'text' };
import bytes from './a.bin' with { type: 'bytes' };
import data from './a.json' with { type: 'json' };
`;
  const files = {
    'load.ts': `${head}export default function (): number {
  return text.length + bytes.byteLength + data.users.length;
}
`,
    'a.txt': 'hello',
    'a.bin': 'bytes',
    'a.json': '{"users":["ada"]}',
  };
  const dir = realpathSync(t.testdir(files));
  const input = { entry: join(dir, 'load.ts'), folder: dir, cwd: dir };
  t.same(lines(await typeCheckScenario(input)), []);
  const wrong = realpathSync(
    t.testdir({ ...files, 'load.ts': `${head}export const n: number = data.nobody;\n` }),
  );
  const issues = await typeCheckScenario({
    entry: join(wrong, 'load.ts'),
    folder: wrong,
    cwd: wrong,
  });
  t.match(lines(issues), [/load\.ts:4:31: Property 'nobody' does not exist/]);
});

t.test('a barrage.d.ts copied beside the scenario does not clash with barrage’s own', async (t) => {
  const copy = `declare module 'barrage' { export const http: { get(url: string): Promise<string> }; }\n`;
  const issues = await check(t, "  const r = await http.get('/x');\n  return r.status;", {
    'barrage.d.ts': copy,
  });
  t.same(lines(issues), []);
});
