import t from 'tap';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { systemClock } from '../../runtime/schedule/clock.js';
import { execute } from '../../runtime/execute.js';
import { eventually } from '../helpers/eventually.js';
import { loadFixture } from '../helpers/plan-fixture.js';
import { childrenOf, cpuTicks, isRunning } from '../helpers/processes.js';

const SPIN = fileURLToPath(new URL('../fixtures/scenarios/spin.ts', import.meta.url));
const CHILD_ENTRY = fileURLToPath(new URL('../../dist/child-entry.js', import.meta.url));

t.test('the exit hook kills a scripted child at once, however busy it is', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'barrage-spin-'));
  copyFileSync(SPIN, join(dir, 'spin.ts'));
  const loaded = await loadFixture(dir, {
    scenario: 'spin.ts',
    target: server.url,
    duration: '120s',
    concurrency: 1,
    timeout: '60s',
  });
  let hook: (() => void) | undefined;
  const run = execute(loaded.plan, systemClock, {
    threads: 1,
    stop: new AbortController().signal,
    hardStop: new AbortController().signal,
    onExit: (handler) => {
      hook = handler;
      return () => (hook = undefined);
    },
  });
  let children: number[] = [];
  await eventually(() => (children = childrenOf(process.pid, CHILD_ENTRY)).length === 1);
  t.teardown(() =>
    children.forEach((pid) => isRunning(pid, CHILD_ENTRY) && process.kill(pid, 'SIGKILL')),
  );
  // In its loop, which holds its thread for up to the 60 s CPU limit: IPC would go unread.
  // 1.5 s of CPU, which a machine with every core busy may take a minute to give it.
  await eventually(() => cpuTicks(children[0]!) > 150, 60_000);
  t.ok(hook !== undefined, 'a hook is registered while the child runs');
  hook!();
  const outcome = await run;
  t.match(outcome.failure, { code: 'segment_lost', message: /killed by SIGKILL/ });
  t.notOk(isRunning(children[0]!, CHILD_ENTRY));
  t.equal(hook, undefined, 'the hook is removed once the run is over');
});
