import t from 'tap';
import { CONSOLE_LINES_PER_SECOND, ConsoleLines } from '../../runtime/script/console-lines.js';
import { CONSOLE_LEVELS, consoleText, MAX_CONSOLE_TEXT } from '../../sandbox/isolate/console.js';

/**
 * The text a scenario's console.log(...args) posts: `source` runs with a console whose methods
 * format their arguments as the isolate's (sandbox/isolate/console.ts).
 */
function logged(source: string): string[] {
  const posted: string[] = [];
  const console = Object.fromEntries(
    CONSOLE_LEVELS.map((level) => [
      level,
      (...args: unknown[]) => posted.push(`${level}|${consoleText(args)}`),
    ]),
  );
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the scenario's code, as text
  (new Function('console', source) as (console: object) => void)(console);
  return posted;
}

t.test('console formats values as a Node console does', async (t) => {
  t.same(logged(`console.log('a', 1, -0, 2n, true, null, undefined)`), [
    'log|a 1 -0 2n true null undefined',
  ]);
  t.same(logged(`console.log({ a: 1, 'b-c': 'x', d: [1, { e: { f: { g: 1 } } }] })`), [
    "log|{ a: 1, 'b-c': 'x', d: [ 1, { e: [Object] } ] }",
  ]);
  t.same(logged(`console.warn('%s is %d, %i, %j %%', 'x', '4.5', 4.5, { k: 1 }, 'rest')`), [
    'warn|x is 4.5, 4, {"k":1} % rest',
  ]);
  t.same(logged(`const o = { n: 1 }; o.self = o; console.error(o, new Error('boom'))`), [
    'error|{ n: 1, self: [Circular] } Error: boom',
  ]);
  t.same(
    logged(`console.debug(new Map([['k', [1]]]), new Set([1]), function named() {}, class K {})`),
    ["debug|Map(1) { 'k' => [ 1 ] } Set(1) { 1 } [Function: named] [class K]"],
  );
  t.same(logged(`console.info(new Uint8Array([1, 2]), { toJSON: () => 'as json' })`), [
    'info|Uint8Array(2) [ 1, 2 ] as json',
  ]);
  const [long] = logged(`console.log('x'.repeat(${MAX_CONSOLE_TEXT + 10}))`);
  t.equal(long, `log|${'x'.repeat(MAX_CONSOLE_TEXT)}… (10 more characters)`);
  t.same(
    logged(`console.log(Array.from({ length: 60 }, (_, i) => i))`)[0]?.endsWith(
      ', 49, ... 10 more items ]',
    ),
    true,
  );
  t.same(
    logged(`console.log({ get bad() { throw new Error('no'); } })`),
    ['log|[a value that cannot be printed]'],
    'a throwing getter does not throw out of console.log',
  );
});

t.test('lines are prefixed, escaped and rate-limited with a count of the rest', async (t) => {
  let now = 0;
  const out: string[] = [];
  const lines = new ConsoleLines(
    (line) => out.push(line),
    () => now,
  );
  lines.write('vu 3', 'log', 'one\ntwo');
  lines.write('setup', 'error', 'red \x1b[31m!');
  t.same(out, ['[vu 3] one', '[vu 3] two', '[setup] error: red \\x1b[31m!']);
  for (let i = 0; i < 30; i++) lines.write('vu 1', 'info', `n${i}`);
  t.equal(out.length, CONSOLE_LINES_PER_SECOND);
  lines.write('vu 1', '', '', 5);
  now = 1000;
  lines.write('vu 2', 'debug', 'later');
  t.same(out.slice(CONSOLE_LINES_PER_SECOND), [
    'console: 18 lines not printed (at most 20 a second, 20 a call)',
    '[vu 2] debug: later',
  ]);
  lines.write('vu 2', 'log', Array.from({ length: 25 }, (_, i) => i).join('\n'));
  lines.close();
  t.equal(out.at(-1), 'console: 6 lines not printed (at most 20 a second, 20 a call)');
});
