// /ws/chat of the embedded target server, over real WebSockets (the ws package) on 127.0.0.1:0:
// the welcome, broadcasts, presence, ping, delay, tick, refusals at upgrade and the bounds.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { WebSocket } from 'ws';
import { startTargetServer, type TargetServer } from '../../cli/serve/target-server.js';

/** One parsed JSON frame from the server. */
type Frame = Record<string, unknown>;

/** Rejects after `ms` so a hang fails the test instead of the whole run timing out. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms, undefined, { ref: false }).then(() => {
      throw new Error(`${what} did not settle within ${ms} ms`);
    }),
  ]);
}

/** A chat client: its socket, and the frames it received in order, taken one at a time. */
class Member {
  readonly ws: WebSocket;
  readonly #frames: Frame[] = [];
  readonly #waiting: ((frame: Frame) => void)[] = [];

  constructor(ws: WebSocket) {
    this.ws = ws;
    // Listening from construction: the welcome may arrive in the same read as the handshake.
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Frame;
      const waiter = this.#waiting.shift();
      if (waiter === undefined) this.#frames.push(frame);
      else waiter(frame);
    });
  }

  /** The next frame not taken yet, waiting at most 5 s for it. */
  next(what = 'a frame'): Promise<Frame> {
    const frame = this.#frames.shift();
    if (frame !== undefined) return Promise.resolve(frame);
    return within(5000, new Promise((resolve) => this.#waiting.push(resolve)), what);
  }

  send(value: unknown): void {
    this.ws.send(JSON.stringify(value));
  }

  /** Closes and waits for the close to complete, so the server has seen it leave. */
  async leave(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.ws.once('close', resolve));
    this.ws.close();
    await within(5000, closed, 'close');
  }
}

/** What an upgrade was refused with. */
interface Refusal {
  status: number;
  body: unknown;
}

/** The rejection of connect() for a refused upgrade. */
class RefusedUpgrade extends Error {
  readonly refusal: Refusal;

  constructor(refusal: Refusal) {
    super(`upgrade refused with ${refusal.status}`);
    this.refusal = refusal;
  }
}

function wsUrl(server: TargetServer, path: string): string {
  return server.url.replace('http', 'ws') + path;
}

/** Connects to `path`; rejects with the refusal (status and JSON body) when there is one. */
function connect(server: TargetServer, path: string): Promise<Member> {
  const ws = new WebSocket(wsUrl(server, path));
  const member = new Member(ws);
  const opened = new Promise<Member>((resolve, reject) => {
    ws.once('open', () => resolve(member));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => {
        ws.terminate();
        reject(new RefusedUpgrade({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
    });
    ws.once('error', reject);
  });
  return within(5000, opened, `connect ${path}`);
}

/** The refusal of `path`'s upgrade; fails the test when the upgrade succeeds. */
async function refusal(server: TargetServer, path: string): Promise<Refusal> {
  try {
    const member = await connect(server, path);
    await member.leave();
  } catch (error) {
    if (error instanceof RefusedUpgrade) return error.refusal;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

/** Connects and takes the welcome, closing the member at the end of the test. */
async function join(t: Test, server: TargetServer, path: string): Promise<Member> {
  const member = await connect(server, path);
  t.teardown(() => member.ws.terminate());
  t.match(await member.next('welcome'), { type: 'welcome' });
  return member;
}

const server = await startTargetServer();
t.teardown(() => server.close());

t.test(
  'a member is welcomed with the room count, and the others hear it join and leave',
  async (t) => {
    const ada = await connect(server, '/ws/chat?room=r1&token=t-ada');
    t.teardown(() => ada.ws.terminate());
    t.strictSame(await ada.next(), { type: 'welcome', user: 'ada', room: 'r1', members: 1 });
    const alan = await connect(server, '/ws/chat?room=r1&token=t-alan');
    t.teardown(() => alan.ws.terminate());
    t.strictSame(await alan.next(), { type: 'welcome', user: 'alan', room: 'r1', members: 2 });
    t.strictSame(await ada.next('joined'), { type: 'joined', user: 'alan', room: 'r1' });
    await alan.leave();
    t.strictSame(await ada.next('left'), { type: 'left', user: 'alan', room: 'r1' });

    const lobby = await connect(server, '/ws/chat?token=t-grace');
    t.teardown(() => lobby.ws.terminate());
    t.strictSame(await lobby.next(), { type: 'welcome', user: 'grace', room: 'lobby', members: 1 });
    t.equal(server.stats().byRoute.ws_chat, 3, 'one count per upgrade');
  },
);

t.test('a say reaches every member of the room, the sender too, and no other room', async (t) => {
  const ada = await join(t, server, '/ws/chat?room=r2&token=t-ada');
  const alan = await join(t, server, '/ws/chat?room=r2&token=t-alan');
  const elsewhere = await join(t, server, '/ws/chat?room=r3&token=t-grace');
  t.match(await ada.next('joined'), { type: 'joined', user: 'alan' });

  ada.send({ type: 'say', id: 'm-1', text: 'hello' });
  const expected = { type: 'message', from: 'ada', id: 'm-1', text: 'hello', room: 'r2' };
  t.strictSame(await ada.next('own message'), expected);
  t.strictSame(await alan.next('message'), expected);
  alan.send({ type: 'say', id: 42, text: '' });
  const numeric = { type: 'message', from: 'alan', id: 42, text: '', room: 'r2' };
  t.strictSame(await ada.next('numeric id'), numeric);
  t.strictSame(await alan.next('numeric id, own'), numeric);

  // Frames reach one connection in order: had room r3 been sent a message, it would come first.
  elsewhere.send({ type: 'ping', id: 'after' });
  t.strictSame(await elsewhere.next('pong'), { type: 'pong', id: 'after' });
});

t.test('a ping is answered to its sender only, with the id as sent', async (t) => {
  const ada = await join(t, server, '/ws/chat?room=r4&token=t-ada');
  const alan = await join(t, server, '/ws/chat?room=r4&token=t-alan');
  await ada.next('joined');
  ada.send({ type: 'ping', id: { seq: 7 } });
  t.strictSame(await ada.next('pong'), { type: 'pong', id: { seq: 7 } });
  ada.send({ type: 'ping' });
  t.strictSame(await ada.next('pong without id'), { type: 'pong' });
  alan.send({ type: 'ping', id: 'mine' });
  t.strictSame(await alan.next('own pong first'), { type: 'pong', id: 'mine' });
});

t.test('?delay holds each pong and each broadcast for that long', async (t) => {
  const delay = 80;
  const ada = await join(t, server, `/ws/chat?room=r5&token=t-ada&delay=${delay}`);
  let sent = performance.now();
  ada.send({ type: 'ping', id: 1 });
  t.strictSame(await ada.next('pong'), { type: 'pong', id: 1 });
  t.ok(performance.now() - sent >= delay - 5, 'the pong waited the delay');
  sent = performance.now();
  ada.send({ type: 'say', id: 2, text: 'later' });
  t.match(await ada.next('message'), { type: 'message', id: 2 });
  t.ok(performance.now() - sent >= delay - 5, 'the broadcast waited the delay');
});

t.test('a say still waiting out its delay dies with its sender', async (t) => {
  const ada = await connect(server, '/ws/chat?room=r6&token=t-ada&delay=150');
  t.teardown(() => ada.ws.terminate());
  await ada.next('welcome');
  const alan = await join(t, server, '/ws/chat?room=r6&token=t-alan');
  await ada.next('joined');
  ada.send({ type: 'say', id: 'never', text: 'gone' });
  await ada.leave();
  t.strictSame(await alan.next('left'), { type: 'left', user: 'ada', room: 'r6' });
  await sleep(300);
  alan.send({ type: 'ping', id: 'next' });
  t.strictSame(await alan.next('pong'), { type: 'pong', id: 'next' }, 'no message came before');
});

t.test('?tick pushes numbered ticks, in order, until the member leaves', async (t) => {
  const ada = await join(t, server, '/ws/chat?room=r7&token=t-ada&tick=15');
  let last = 0;
  for (let n = 1; n <= 3; n++) {
    const tick = await ada.next(`tick ${n}`);
    t.match(tick, { type: 'tick', n, at: Number });
    t.ok((tick.at as number) >= last, 'at does not go back');
    last = tick.at as number;
  }
  await ada.leave();
});

t.test('an upgrade is refused for a bad token, room, delay or tick, and a plain GET', async (t) => {
  const unauthorized = { status: 401, body: { error: /token must be t-<user>/ } };
  t.match(await refusal(server, '/ws/chat?room=r8'), unauthorized, 'no token');
  for (const token of ['', 'ada', 't-', 'T-ada', 't-a b', `t-${'x'.repeat(33)}`, 't-ad%C3%A9']) {
    t.match(await refusal(server, `/ws/chat?token=${token}`), unauthorized, `token "${token}"`);
  }
  const secret = await refusal(server, '/ws/chat?token=s3cr3t-value');
  t.notOk(JSON.stringify(secret.body).includes('s3cr3t'), 'the token is not echoed');
  t.match(await refusal(server, '/ws/chat?room=a%20b&token=t-ada'), {
    status: 400,
    body: { error: /room must be/ },
  });
  t.match(await refusal(server, `/ws/chat?room=${'r'.repeat(33)}&token=t-ada`), { status: 400 });
  t.match(await refusal(server, '/ws/chat?room=&token=t-ada'), { status: 400 }, 'empty room');
  t.match(await refusal(server, '/ws/chat?token=t-ada&delay=60001&tick=9'), {
    status: 400,
    body: { error: /delay must be an integer 0\.\.60000; tick must be an integer 10\.\.60000/ },
  });
  t.match(await refusal(server, '/ws/chat?token=t-ada&tick=1.5'), { status: 400 });
  t.match(await refusal(server, '/ws/chat?room=a%20b'), { status: 401 }, 'the token first');

  const plain = await fetch(`${server.url}/ws/chat?token=t-ada`);
  t.equal(plain.status, 426, 'a plain GET needs an upgrade');
  t.equal(plain.headers.get('upgrade'), 'websocket');
  await plain.body?.cancel();
});

t.test(
  'frames that are not a say or a ping are answered with an error, and the chat goes on',
  async (t) => {
    const ada = await join(t, server, '/ws/chat?room=r9&token=t-ada');
    const wrong: [string | Buffer, RegExp][] = [
      ['not json', /a JSON object/],
      ['[1,2]', /a JSON object/],
      ['{"type":"shout","text":"x"}', /"say" or "ping"/],
      ['{"type":"say","text":"no id"}', /"id" \(a string or a number\)/],
      ['{"type":"say","id":true,"text":"x"}', /"id"/],
      ['{"type":"say","id":1,"text":7}', /"text" \(a string\)/],
      [Buffer.from([1, 2, 3]), /not a binary one/],
    ];
    for (const [data, error] of wrong) {
      ada.ws.send(data);
      t.match(
        await ada.next('error'),
        { type: 'error', error },
        typeof data === 'string' ? data : 'binary',
      );
    }
    t.equal(ada.ws.readyState, WebSocket.OPEN, 'still open');
    ada.send({ type: 'ping', id: 'ok' });
    t.strictSame(await ada.next('pong'), { type: 'pong', id: 'ok' });
  },
);

t.test('a frame above 64 KiB closes the connection with 1009', async (t) => {
  const ada = await join(t, server, '/ws/chat?room=r10&token=t-ada');
  const closed = new Promise<number>((resolve) => ada.ws.once('close', resolve));
  ada.send({ type: 'say', id: 1, text: 'x'.repeat(65 * 1024) });
  t.equal(await within(5000, closed, 'close'), 1009);
});

t.test('a room holds at most chatMaxMembers, the server at most chatMaxRooms', async (t) => {
  const small = await startTargetServer({ chatMaxMembers: 2, chatMaxRooms: 2 });
  t.teardown(() => small.close());
  await join(t, small, '/ws/chat?room=a&token=t-ada');
  const alan = await join(t, small, '/ws/chat?room=a&token=t-alan');
  t.match(await refusal(small, '/ws/chat?room=a&token=t-grace'), {
    status: 503,
    body: { error: 'room is full (2 members)' },
  });
  const grace = await join(t, small, '/ws/chat?room=b&token=t-grace');
  t.match(await refusal(small, '/ws/chat?room=c&token=t-linus'), {
    status: 503,
    body: { error: 'too many rooms (2)' },
  });
  await alan.leave();
  await join(t, small, '/ws/chat?room=a&token=t-alan');
  await grace.leave();
  // Room b is forgotten once empty, so room c now fits.
  await join(t, small, '/ws/chat?room=c&token=t-linus');
  t.match(await refusal(small, '/ws/chat?room=d&token=t-linus'), { status: 503 });
});

t.test('the server closes with members connected, ticking and waiting on a delay', async (t) => {
  const own = await startTargetServer();
  const ada = await join(t, own, '/ws/chat?room=z&token=t-ada&tick=10&delay=1000');
  const closed = new Promise((resolve) => ada.ws.once('close', resolve));
  ada.send({ type: 'ping', id: 1 });
  await within(5000, own.close(), 'server close');
  await within(5000, closed, 'member closed');
  t.pass('closed');
});

t.test('a member that stops reading is cut once its backlog passes the bound', async (t) => {
  const reader = await join(t, server, '/ws/chat?room=r11&token=t-ada');
  const talker = await join(t, server, '/ws/chat?room=r11&token=t-alan');
  await reader.next('joined');
  // Paused, the reader's kernel buffers fill, then the server's queue, up to MAX_CHAT_BACKLOG.
  reader.ws.pause();
  const text = 'x'.repeat(60 * 1024);
  let left: Frame | undefined;
  for (let i = 0; i < 1000 && left === undefined; i++) {
    talker.send({ type: 'say', id: i, text });
    const frame = await talker.next(`own message ${i}`);
    if (frame.type === 'left') left = frame;
  }
  t.strictSame(left, { type: 'left', user: 'ada', room: 'r11' }, 'the reader was cut');
  t.equal(talker.ws.readyState, WebSocket.OPEN, 'the talker goes on');
});
