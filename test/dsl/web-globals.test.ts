/**
 * The web globals of a scenario's context (sandbox/isolate/web-globals.ts) against their web
 * behaviour, in an isolate set up as the options reader sets up its context (the same web globals
 * a virtual user's gets): the compiled source evaluated with the host's calls (web-host.ts) as an
 * isolated-vm Callback, and a scenario that keeps the API's crypto as `barrageCrypto`. Each case runs in the isolate and its
 * result comes back as JSON.
 */
import t from 'tap';
import { isolatedVm } from '../../native/isolated-vm.js';
import { isolateSource } from '../../sandbox/isolate-source.js';
import { MAX_WEB_CALL_SIZE } from '../../sandbox/isolate/web-call.js';
import { webHost } from '../../sandbox/web-host.js';

/** The operations that reached the host, in order. */
const reached: string[] = [];
function hostCall(op: string, ...args: unknown[]): unknown {
  reached.push(op);
  return webHost(op, ...args);
}

const ivm = isolatedVm();
const isolate = new ivm.Isolate({ memoryLimit: 32 });
t.teardown(() => isolate.dispose());
const context = isolate.createContextSync();
const scenario = context.evalSync(
  '(api) => { globalThis.barrageCrypto = api.crypto; globalThis.barrageEncoding = api.encoding; return {}; }',
  { reference: true },
);
context.evalClosureSync(
  isolateSource('options'),
  [scenario.derefInto(), new ivm.Callback(hostCall), '{}'],
  { result: { copy: true }, timeout: 1000 },
);

/** Runs `code` (a function body) in the isolate; its return value comes back through JSON. */
function run(code: string): unknown {
  const json: unknown = context.evalSync(`JSON.stringify((() => { ${code} })())`, {
    timeout: 1000,
  });
  return JSON.parse(json as string) as unknown;
}

/** The name and message of what `code` throws in the isolate, or 'no throw'. */
function thrown(code: string): unknown {
  return run(
    `try { ${code}; return 'no throw'; } catch (e) { return { name: e.name, message: e.message, dom: e instanceof DOMException, code: e.code }; }`,
  );
}

t.test('URL parses, resolves relative references and normalizes as WHATWG URL does', async (t) => {
  t.same(
    run(`const u = new URL('HTTP://User:Pw@Example.COM:8080/a/./b/../c?x=1#frag');
      return [u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin];`),
    [
      'http://User:Pw@example.com:8080/a/c?x=1#frag',
      'http:',
      'User',
      'Pw',
      'example.com:8080',
      'example.com',
      '8080',
      '/a/c',
      '?x=1',
      '#frag',
      'http://example.com:8080',
    ],
  );
  t.same(
    run(`return [new URL('../d?q', 'http://h/a/b/c').href, new URL('//other/x', 'https://h/').href,
      new URL('http://h:80/').port, String(new URL('http://h/ä b')), URL.canParse('nope'), URL.parse('/x'),
      new URL('http://h/') instanceof URL, JSON.stringify({ u: new URL('http://h/p') })]`),
    [
      'http://h/a/d?q',
      'https://other/x',
      '',
      'http://h/%C3%A4%20b',
      false,
      null,
      true,
      '{"u":"http://h/p"}',
    ],
  );
  t.same(thrown(`new URL('/relative')`), { name: 'TypeError', message: 'Invalid URL', dom: false });
  t.same(
    run(`const u = new URL('http://h/p'); u.pathname = '/a b'; u.hash = 'top'; u.port = 'bad'; u.search = 'k=v w';
      return [u.href, u.searchParams.get('k')];`),
    ['http://h/a%20b?k=v%20w#top', 'v w'],
  );
});

t.test('a URL and its searchParams stay linked both ways', async (t) => {
  t.same(
    run(`const u = new URL('http://h/p?a=1&b=2&a=3');
      const p = u.searchParams;
      const before = [p.get('a'), p.getAll('a'), p.has('b'), p.size];
      p.append('c', 'x y&z'); p.delete('b'); p.set('a', 'é');
      const afterParams = u.href;
      u.search = '?n=1';
      return [before, afterParams, [...p], p === u.searchParams];`),
    [['1', ['1', '3'], true, 3], 'http://h/p?a=%C3%A9&c=x+y%26z', [['n', '1']], true],
  );
  t.equal(
    run(`const u = new URL('http://h/p?a=1'); u.searchParams.delete('a'); return u.href;`),
    'http://h/p',
  );
});

t.test('URLSearchParams encodes as application/x-www-form-urlencoded', async (t) => {
  t.same(
    run(`return [
      new URLSearchParams({ q: 'a b', sym: '&=+?/', emoji: '😀', tilde: '~*-._' }).toString(),
      new URLSearchParams('?x=1+2&y=%26&z').toString(),
      new URLSearchParams([['k', 'v'], ['k', 'w']]).getAll('k'),
      [...new URLSearchParams('b=2&a=1&b=1').keys()],
      (() => { const p = new URLSearchParams('b=2&a=1&b=1'); p.sort(); return p.toString(); })(),
      new URLSearchParams('x=1+2&y=%26').get('x'),
    ]`),
    [
      'q=a+b&sym=%26%3D%2B%3F%2F&emoji=%F0%9F%98%80&tilde=%7E*-._',
      'x=1+2&y=%26&z=',
      ['v', 'w'],
      ['b', 'a', 'b'],
      'a=1&b=2&b=1',
      '1 2',
    ],
  );
  t.match(thrown(`new URLSearchParams([['a', 'b', 'c']])`), { name: 'TypeError' });
});

t.test('TextEncoder and TextDecoder round-trip non-ASCII text as UTF-8', async (t) => {
  t.same(
    run(`const bytes = new TextEncoder().encode('héllo 😀 日本');
      return [bytes instanceof Uint8Array, bytes.length, Array.from(bytes.slice(0, 3)), new TextDecoder().decode(bytes),
        new TextDecoder('utf8').encoding, new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])),
        new TextDecoder().decode(new Uint8Array([0xff])), new TextDecoder().decode(bytes.subarray(7, 11))];`),
    [true, 18, [0x68, 0xc3, 0xa9], 'héllo 😀 日本', 'utf-8', 'A', '\ufffd', '😀'],
  );
  t.same(
    run(
      `const into = new Uint8Array(4); const r = new TextEncoder().encodeInto('aé😀', into); return [r, Array.from(into)];`,
    ),
    [{ read: 2, written: 3 }, [0x61, 0xc3, 0xa9, 0]],
  );
  t.match(thrown(`new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xc3]))`), {
    name: 'TypeError',
  });
  t.match(thrown(`new TextDecoder('latin1')`), { name: 'RangeError' });
});

t.test('atob and btoa, with the InvalidCharacterError the web throws', async (t) => {
  t.same(
    run(
      `return [btoa('hello'), atob('aGVsbG8='), atob(' aGVs bG8 '), atob('aGVsbG8'), btoa('\\xff')]`,
    ),
    ['aGVsbG8=', 'hello', 'hello', 'hello', '/w=='],
  );
  t.match(thrown(`atob('a')`), { name: 'InvalidCharacterError', dom: true, code: 5 });
  t.match(thrown(`atob('*abc')`), { name: 'InvalidCharacterError', dom: true });
  t.match(thrown(`btoa('日本')`), { name: 'InvalidCharacterError', dom: true, code: 5 });
  t.match(thrown(`atob()`), { name: 'TypeError' });
});

t.test('structuredClone copies nested objects, Maps, Sets and Dates', async (t) => {
  t.same(
    run(`const date = new Date(86400000);
      const source = { a: { b: [1, { c: 'd' }] }, m: new Map([['k', { v: 1 }]]), s: new Set([1, 2]), date };
      source.self = source;
      const copy = structuredClone(source);
      return [copy !== source, copy.a.b[1].c, copy.a !== source.a, copy.m instanceof Map, copy.m.get('k').v,
        copy.m.get('k') !== source.m.get('k'), copy.s instanceof Set, [...copy.s], copy.date instanceof Date,
        copy.date.getTime(), copy.date !== date, copy.self === copy];`),
    [true, 'd', true, true, 1, true, true, [1, 2], true, 86400000, true, true],
  );
  t.match(thrown(`structuredClone({ f() {} })`), { name: 'DataCloneError', dom: true, code: 25 });
});

t.test('crypto.randomUUID and crypto.getRandomValues as the web has them', async (t) => {
  const uuids = run(`return [crypto.randomUUID(), crypto.randomUUID()]`) as string[];
  for (const uuid of uuids)
    t.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.not(uuids[0], uuids[1]);
  t.same(
    run(`const a = new Uint32Array(64); const back = crypto.getRandomValues(a);
      const b = new Uint8Array(65536); crypto.getRandomValues(b);
      const view = new Uint8Array(16); crypto.getRandomValues(view.subarray(4, 8));
      return [back === a, a.some((x) => x !== 0), b.some((x) => x !== 0), view.slice(0, 4).every((x) => x === 0) && view.slice(8).every((x) => x === 0)];`),
    [true, true, true, true],
  );
  t.match(thrown(`crypto.getRandomValues(new Uint8Array(65537))`), {
    name: 'QuotaExceededError',
    dom: true,
    code: 22,
  });
  t.match(thrown(`crypto.getRandomValues(new Float64Array(2))`), {
    name: 'TypeMismatchError',
    dom: true,
  });
  t.match(thrown(`crypto.getRandomValues([1, 2])`), { name: 'TypeError' });
});

t.test("barrage's crypto: SHA-256 of abc, HMAC-SHA256 of RFC 4231's test case 2", async (t) => {
  t.same(
    run(`return [barrageCrypto.sha256('abc', 'hex'), barrageCrypto.hash('sha256', 'abc', 'base64'),
      barrageCrypto.hmac('sha256', 'Jefe', 'what do ya want for nothing?', 'hex'),
      barrageCrypto.hmac('sha256', new TextEncoder().encode('Jefe'), new TextEncoder().encode('what do ya want for nothing?'), 'base64url'),
      barrageCrypto.md5('', 'hex'), barrageCrypto.sha256('abc', 'binary').byteLength, barrageCrypto.randomBytes(8).byteLength]`),
    [
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      'W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=',
      'd41d8cd98f00b204e9800998ecf8427e',
      32,
      8,
    ],
  );
  t.match(thrown(`barrageCrypto.hash('whirlpool', 'x', 'hex')`), { name: 'TypeError' });
  t.match(thrown(`barrageCrypto.hash('sha256', 'x', 'latin1')`), { name: 'TypeError' });
});

t.test(
  'a call past 16 MiB is refused in the isolate, before a copy reaches the host',
  async (t) => {
    const past = MAX_WEB_CALL_SIZE + 1;
    // Made once in the isolate (a 16 MiB string fits its 32 MB): each call then refers to it.
    run(
      `globalThis.big = 'a'.repeat(${past}); globalThis.bytes = new Uint8Array(${past}); return 0;`,
    );
    reached.length = 0;
    for (const [code, called] of [
      ['btoa(big)', 'btoa()'],
      ['atob(big)', 'atob()'],
      ['new TextEncoder().encode(big)', 'TextEncoder.encode()'],
      ['new TextDecoder().decode(bytes)', 'TextDecoder.decode()'],
      ["barrageCrypto.sha256(bytes, 'hex')", 'crypto.hash()'],
      ["barrageCrypto.hmac('sha256', 'k', big, 'hex')", 'crypto.hmac()'],
      ['structuredClone(big)', 'structuredClone()'],
    ] as const)
      t.match(thrown(code), { message: `${called}: ` }, code);
    t.same(
      reached.filter((op) => op !== 'decoder'),
      [],
      "no call reached the host (but the decoder's label check)",
    );
    run('globalThis.big = undefined; globalThis.bytes = undefined; return 0;');
    t.equal(
      run(`return btoa('a'.repeat(3 * 1024 * 1024)).length;`),
      4 * 1024 * 1024,
      'below it, as ever',
    );
    // A list's strings count together: 17 values of 1 MiB.
    t.match(
      thrown(
        `const mib = 'a'.repeat(1048576); new URLSearchParams(Array.from({ length: 17 }, () => ['k', mib])).toString()`,
      ),
      { name: 'RangeError', message: 'URLSearchParams.toString(): 17825809 characters' },
    );
  },
);

t.test(
  "barrage's streaming hashers digest what node:crypto digests of the same pieces",
  async (t) => {
    const { createHash, createHmac } = await import('node:crypto');
    const hash = createHash('sha256')
      .update('hello ')
      .update(Buffer.from([0, 1, 2]))
      .digest();
    const hmac = createHmac('sha512', 'key').update('a').update('b').digest();
    t.same(
      run(`const h = barrageCrypto.createHash('sha256').update('hello ').update(new Uint8Array([0, 1, 2]));
      const m = barrageCrypto.createHMAC('sha512', 'key').update('a');
      m.update('b');
      return [h.digest('hex'), h.digest('base64'), m.digest('base64url'), m.digest('base64rawurl'),
        barrageCrypto.createHash('md5').digest('binary').byteLength];`),
      [
        hash.toString('hex'),
        hash.toString('base64'),
        hmac.toString('base64url') + '==',
        hmac.toString('base64url'),
        16,
      ],
    );
    t.match(thrown(`barrageCrypto.createHash('sha3')`), { name: 'TypeError' });
    t.match(thrown(`barrageCrypto.createHash('sha1').digest('base32')`), { name: 'TypeError' });
  },
);

t.test(
  "k6/encoding's base64 variants are Go's: padded or raw, standard or url alphabet",
  async (t) => {
    const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x41]);
    const std = bytes.toString('base64');
    const url = bytes.toString('base64url');
    t.same(
      run(`const b = new Uint8Array([0xfb, 0xff, 0xbf, 0x41]);
      return [barrageEncoding.b64encode(b), barrageEncoding.b64encode(b, 'rawstd'),
        barrageEncoding.b64encode(b, 'url'), barrageEncoding.b64encode(b, 'rawurl'),
        barrageEncoding.b64encode('héllo'),
        barrageEncoding.b64decode('aMOpbGxv', 'std', 's'),
        [...new Uint8Array(barrageEncoding.b64decode('-_-_QQ', 'rawurl'))]];`),
      [
        std,
        std.replace(/=+$/, ''),
        url + '==',
        url,
        Buffer.from('héllo').toString('base64'),
        'héllo',
        [...Buffer.from('-_-_QQ', 'base64url')],
      ],
    );
    t.match(thrown(`barrageEncoding.b64encode('x', 'hex')`), { name: 'TypeError' });
  },
);
