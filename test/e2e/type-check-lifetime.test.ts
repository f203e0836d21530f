// The type check's child process dies with barrage (dsl/script/type-check-entry.ts): SIGKILLed
// while it checks a scenario whose types cost TypeScript minutes of CPU, barrage leaves no child
// checking on. The child watches its parent from a thread of its own, since the check holds its
// main thread throughout; without it the check ran on to its end (or its 60 s backstop).
import t from 'tap';
import { BIN, runCli } from '../helpers/run-cli.js';
import { eventually } from '../helpers/eventually.js';
import { childrenOf, cpuTicks, isRunning } from '../helpers/processes.js';

const ENTRY = 'type-check-entry.js';

/**
 * A scenario that type-checks for minutes: each constant makes TypeScript build a tuple of up to
 * 999 elements one element at a time (about 25 s of CPU for the 400 of them on an idle core).
 */
function slowScenario(): string {
  const lines = [
    "import { http } from 'barrage';",
    "type Build<N extends number, A extends unknown[] = []> = A['length'] extends N ? A : Build<N, [...A, A['length']]>;",
  ];
  for (let i = 0; i < 400; i++)
    lines.push(`export const t${i}: Build<${999 - i}>['length'] = ${999 - i};`);
  lines.push("export default async function (): Promise<void> { await http.get('/'); }", '');
  return lines.join('\n');
}

t.test('a SIGKILLed barrage leaves no type check running', async (t) => {
  const dir = t.testdir({ 'slow.ts': slowScenario() });
  let checker = 0;
  t.teardown(() => void (isRunning(checker, ENTRY) && process.kill(checker, 'SIGKILL')));
  const run = await runCli(
    ['validate', '--scenario', 'slow.ts', '--target', 'http://127.0.0.1:9'],
    {
      cwd: dir,
      typecheck: true,
      killAfterMs: 60_000,
      onSpawn: (child) =>
        void (async () => {
          await eventually(() => (checker = childrenOf(child.pid!, ENTRY)[0] ?? 0) !== 0);
          // Under way: TypeScript loaded and its watch thread started (the first 100 ms of CPU).
          await eventually(() => cpuTicks(checker) > 30);
          child.kill('SIGKILL');
        })(),
    },
  );
  t.equal(run.signal, 'SIGKILL', 'barrage was killed during the check');
  t.ok(checker > 0, `the check ran in a child of ${BIN}`);
  // One poll of the watch (200 ms) after the kill, given a busy machine's allowance; the check
  // itself would take minutes.
  await t.resolves(
    eventually(() => !isRunning(checker, ENTRY), 5_000),
    'the check ended with it',
  );
});
