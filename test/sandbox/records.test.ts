/**
 * The records between host and isolate (sandbox/isolate/records.ts): every kind has a code of its
 * own, what the host writes is what the isolate's entry reads, and the compiled hub reports an
 * entry that throws as a FAULT record instead of losing the error.
 */
import t from 'tap';
import { isolatedVm } from '../../native/isolated-vm.js';
import { isolateSource } from '../../sandbox/isolate-source.js';
import {
  entryOf,
  inbound,
  RECORD,
  RESPONSE_WIDTH,
  readOutbound,
  type InboundReader,
  type RecordValue,
} from '../../sandbox/isolate/records.js';

t.test('every kind of record has a code of its own', async (t) => {
  const codes = Object.values(RECORD);
  t.equal(new Set(codes).size, codes.length, JSON.stringify(RECORD));
});

t.test('what the host writes, the entry reads, kind by kind', async (t) => {
  const read: unknown[] = [];
  const reader: InboundReader = {
    run: (...args) => read.push(['run', ...args]),
    ok: (...args) => read.push(['ok', ...args]),
    response: (...args) => read.push(['response', ...args]),
    failed: (...args) => read.push(['failed', ...args]),
    event: (...args) => read.push(['event', ...args]),
    setup: (token) => read.push(['setup', token]),
    teardown: (token) => read.push(['teardown', token]),
  };
  const records: RecordValue[] = [];
  const response = {
    status: 200,
    fields: 2,
    text: 'u\nk\nv\nbody',
    error: '',
    durationMs: 3,
    events: -1,
    firstEventMs: -1,
    connectingMs: 0.5,
    tlsMs: 0,
    waitingMs: 1.25,
    receivingMs: 0.25,
    protocol: 'HTTP/1.1',
  };
  inbound.entry(records, 0, RECORD.RUN, 7, 2, 'exec');
  inbound.ok(records, 0, 8, '"x"');
  inbound.response(records, 0, 9, response);
  inbound.failed(records, 0, 10, 'no');
  inbound.event(records, 0, 11, 'open', 0);
  inbound.entry(records, 0, RECORD.SETUP, 12, 0);
  inbound.entry(records, 0, RECORD.TEARDOWN, 13, 0);
  const entry = entryOf(reader);
  for (let i = 0; i < records.length;) {
    const width = records[i + 1] === RECORD.RESPONSE ? RESPONSE_WIDTH : 5;
    entry(...(records.slice(i + 1, i + width) as Parameters<typeof entry>));
    i += width;
  }
  t.same(read, [
    ['run', 7, 2, 'exec'],
    ['ok', 8, '"x"'],
    ['response', 9, response],
    ['failed', 10, 'no'],
    ['event', 11, 'open', 0],
    ['setup', 12],
    ['teardown', 13],
  ]);
});

t.test('the hub reports an entry that throws as a FAULT record of its virtual user', async (t) => {
  const ivm = isolatedVm();
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  t.teardown(() => isolate.dispose());
  const context = isolate.createContextSync();
  const hub = context.evalClosureSync(isolateSource('hub'), [], { result: { reference: true } });
  const ref = (i: number) => hub.getSync(i, { reference: true });
  const [add, pump, take] = [ref(0), ref(1), ref(2)];
  const broken = context.evalSync('() => { throw new TypeError("broken"); }', { reference: true });
  add.applySync(undefined, [3, broken.derefInto()]);
  pump.applySync(undefined, [[3, RECORD.OK, 1, '', 0]], { arguments: { copy: true } });
  const faults: unknown[] = [];
  readOutbound(take.applySync(undefined, [], { result: { copy: true } }) as RecordValue[], {
    bytes: () => t.fail('no BYTES'),
    start: () => t.fail('no START'),
    end: () => t.fail('no END'),
    log: () => t.fail('no LOG'),
    fault: (vu, message) => faults.push([vu, message]),
  });
  t.same(faults, [[3, 'broken']]);
});

t.test('bytes an entry posts cross to the host as bytes, before their START record', async (t) => {
  const ivm = isolatedVm();
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  t.teardown(() => isolate.dispose());
  const context = isolate.createContextSync();
  const hub = context.evalClosureSync(isolateSource('hub'), [], { result: { reference: true } });
  const [take, post] = [hub.getSync(2, { reference: true }), hub.getSync(3, { reference: true })];
  const poster = context.evalClosureSync(
    `return () => {
      const all = new Uint8Array(256).map((_, i) => i);
      $0(1, ${RECORD.BYTES}, 4, all.buffer, 0);
      $0(1, ${RECORD.START}, 4, 'http', '{}');
    }`,
    [post.derefInto()],
    { result: { reference: true } },
  );
  poster.applySync(undefined, []);
  const read: unknown[] = [];
  readOutbound(take.applySync(undefined, [], { result: { copy: true } }) as RecordValue[], {
    bytes: (vu, id, bytes) => read.push(['bytes', vu, id, [...new Uint8Array(bytes)]]),
    start: (vu, id, op, json) => read.push(['start', vu, id, op, json]),
    end: () => t.fail('no END'),
    log: () => t.fail('no LOG'),
    fault: () => t.fail('no FAULT'),
  });
  const every = Array.from({ length: 256 }, (_, i) => i);
  t.same(read, [
    ['bytes', 1, 4, every],
    ['start', 1, 4, 'http', '{}'],
  ]);
});
