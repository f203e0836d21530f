import t from 'tap';
import { PassThrough } from 'node:stream';
import { TerminalSession } from '../../cli/dashboard/terminal-session.js';

const ENTER = '\u001b[?1049h\u001b[?25l\u001b[2J';
const LEAVE = '\u001b[0m\u001b[?25h\u001b[?1049l';

function harness() {
  const stdout = new PassThrough();
  const writes: string[] = [];
  stdout.on('data', (chunk: Buffer) => writes.push(chunk.toString('utf8')));
  const raw: boolean[] = [];
  const hooks = new Set<() => void>();
  const session = new TerminalSession({
    stdout,
    setRawMode: (on) => raw.push(on),
    onExit: (handler) => {
      hooks.add(handler);
      return () => hooks.delete(handler);
    },
  });
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { session, writes, raw, hooks, flush };
}

t.test('enter, draw only what changed, leave exactly once', async (t) => {
  const { session, writes, raw, hooks, flush } = harness();
  session.draw(['ignored before enter']);
  session.enter();
  session.enter();
  await flush();
  t.same(writes, [ENTER], 'alternate screen, hidden cursor, cleared; once');
  t.same(raw, [true]);
  t.equal(hooks.size, 1, 'a last-resort exit hook');

  session.draw(['one', 'two', 'three']);
  session.draw(['one', 'two', 'three']);
  session.draw(['one', 'TWO']);
  await flush();
  t.same(writes.slice(1), [
    '\u001b[1;1Hone\u001b[0m\u001b[K\u001b[2;1Htwo\u001b[0m\u001b[K\u001b[3;1Hthree\u001b[0m\u001b[K',
    '\u001b[2;1HTWO\u001b[0m\u001b[K\u001b[3;1H\u001b[K',
  ]);

  session.invalidate();
  session.draw(['one', 'TWO']);
  await flush();
  t.same(writes.slice(3), [
    '\u001b[2J',
    '\u001b[1;1Hone\u001b[0m\u001b[K\u001b[2;1HTWO\u001b[0m\u001b[K',
  ]);

  session.leave();
  session.leave();
  session.draw(['after']);
  await flush();
  t.same(writes.slice(5), [LEAVE], 'restored once; nothing drawn after');
  t.same(raw, [true, false]);
  t.equal(hooks.size, 0, 'the exit hook is gone');
});

t.test('the exit hook restores a terminal nobody restored (a crash)', async (t) => {
  const { session, writes, raw, hooks, flush } = harness();
  session.enter();
  for (const hook of [...hooks]) hook();
  await flush();
  t.same(writes, [ENTER, LEAVE]);
  t.same(raw, [true, false]);
});
