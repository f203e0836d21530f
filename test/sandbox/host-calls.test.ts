// The host's decoding of what a virtual user's isolate passes (sandbox/isolate/host-calls.ts,
// runtime/script/decode-call-args.ts): arguments of the shape the contract gives come through as
// they are; any other shape is refused with the operation's name, before the host reads it.
import t from 'tap';
import { decodeHostCall, isHostOp } from '../../sandbox/isolate/host-calls.js';
import {
  decodeConnectArgs,
  decodeHttpArgs,
  decodeWsArgs,
} from '../../runtime/script/decode-call-args.js';

t.test('arguments of the contract come through as they are', async (t) => {
  const check = ['status is 200', true, undefined, { kind: 'api' }] as const;
  t.equal(decodeHostCall('check', check), check);
  t.equal(decodeHostCall('vars.get', 'token'), 'token');
  t.equal(decodeHostCall('feed', null), null);
  const buffer = new ArrayBuffer(2);
  t.strictSame(decodeHostCall('ws.send', [3, buffer]), [3, buffer]);
});

t.test('any other shape is refused, naming the operation', async (t) => {
  t.throws(() => decodeHostCall('check', ['name', 'yes', undefined, undefined]), {
    message: 'check: malformed arguments from the isolate',
  });
  t.throws(() => decodeHostCall('metric', ['latency', 12, { kind: 3 }, undefined]), {
    message: /^metric: /,
  });
  t.throws(() => decodeHostCall('vars.set', ['key', 'value']), { message: /^vars\.set: / });
  t.throws(() => decodeHostCall('cookies.get', 42), { message: /^cookies\.get: / });
  t.throws(() => decodeHostCall('ws.close', [1, '1000', '']), { message: /^ws\.close: / });
});

t.test('only the named operations are host calls', async (t) => {
  t.ok(isHostOp('jsonpath'));
  t.ok(isHostOp('ws.timedOut'));
  t.notOk(isHostOp('http'), 'http settles later: it is no call answered at once');
  t.notOk(isHostOp('toString'), 'no inherited name passes');
});

t.test("an http call's arguments: the fields the builder reads are checked", async (t) => {
  const args = {
    method: 'POST',
    url: '/items',
    body: '{"a":1}',
    json: true,
    query: [['page', '2']],
    headers: { 'X-Trace': 'on' },
    multipart: [{ name: 'file', data: '', bytes: 0, file: true }],
    group: 'checkout',
  };
  t.strictSame(decodeHttpArgs(JSON.stringify(args)), args);
  for (const broken of [
    { ...args, method: 7 },
    { ...args, query: [['page']] },
    { ...args, headers: { 'X-Trace': 1 } },
    { ...args, multipart: [{ name: 'file', file: true }] },
    { ...args, timeout: '5s' },
  ])
    t.throws(() => decodeHttpArgs(JSON.stringify(broken)), {
      message: 'http: malformed arguments from the isolate',
    });
});

t.test(
  'a number that was NaN (null in JSON) reads as not given, as the host always read it',
  async (t) => {
    const http = { method: 'GET', url: '/', json: false, query: [], headers: {}, timeout: null };
    t.equal(decodeHttpArgs(JSON.stringify(http)).timeout, undefined);
    const ws = { url: '/ws', messages: ['hi'], interval: null, subprotocols: [] };
    t.equal(decodeWsArgs(JSON.stringify(ws)).interval, 0);
    t.throws(() => decodeWsArgs(JSON.stringify({ ...ws, messages: [1] })), {
      message: 'ws: malformed arguments from the isolate',
    });
    const connect = { url: '/ws', headers: { 'X-A': 'b' }, subprotocols: ['chat'] };
    t.strictSame(decodeConnectArgs(JSON.stringify(connect)), connect);
    t.throws(() => decodeConnectArgs(JSON.stringify({ ...connect, headers: null })), {
      message: 'ws.connect: malformed arguments from the isolate',
    });
  },
);
