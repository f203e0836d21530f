// The cookie jar's fast path (runtime/http/cookie-memo.ts) against tough-cookie alone: for any
// sequence of Set-Cookie lines stored from any URL and Cookie headers read for any URL, the
// headers are the same. The corpus: host-only and domain cookies, paths, Secure, HttpOnly,
// SameSite, overwrites, expiry in the future and the past, deletion by Max-Age=0, lines repeated
// from the same URL and from others.
import t from 'tap';
import fc from 'fast-check';
import { Cookie, CookieJar } from 'tough-cookie';
import { UserCookies } from '../../runtime/http/cookie-jar.js';

const NAMES = ['sid', 'theme', 'a'];
const VALUES = ['1', '2', 'x%20y'];
const ATTRIBUTES = [
  'Path=/',
  'Path=/app',
  'Domain=example.test',
  'HttpOnly',
  'Secure',
  'SameSite=Lax',
  'SameSite=Strict',
  'SameSite=None',
  'Max-Age=3600',
  'Max-Age=0',
  'Expires=Wed, 21 Oct 2099 07:28:00 GMT',
  'Expires=Wed, 21 Oct 2015 07:28:00 GMT',
];
const ORIGINS = ['http://example.test', 'https://example.test', 'http://www.example.test'];
const PATHS = ['/', '/app', '/app/page?q=1', '/other/x'];

const line = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.constantFrom(...VALUES),
    fc.subarray(ATTRIBUTES, { maxLength: 4 }),
  )
  .map(([name, value, attributes]) => [`${name}=${value}`, ...attributes].join('; '));
const place = fc.tuple(fc.constantFrom(...ORIGINS), fc.constantFrom(...PATHS));
const step = fc.oneof(
  fc.record({
    kind: fc.constant('store' as const),
    place,
    lines: fc.array(line, { maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('read' as const), place }),
);

/** The jar as it was: tough-cookie parsing, storing and reading every time. */
class Reference {
  readonly jar = new CookieJar();
  store(url: string, lines: readonly string[]): void {
    for (const text of lines) {
      const cookie = Cookie.parse(text);
      if (cookie !== undefined) this.jar.setCookieSync(cookie, url, { ignoreError: true });
    }
  }
  header(url: string): string | undefined {
    const value = this.jar.getCookieStringSync(url);
    return value === '' ? undefined : value;
  }
}

t.test('the fast path and tough-cookie send the same Cookie headers', (t) => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
      const fast = new UserCookies();
      const reference = new Reference();
      for (const s of steps) {
        const [origin, path] = s.place;
        if (s.kind === 'store') {
          fast.store(origin + path, s.lines);
          reference.store(origin + path, s.lines);
          // The same lines again, as a target sends its session cookie with every response.
          fast.store(origin + path, s.lines);
          reference.store(origin + path, s.lines);
        } else if (fast.header(origin, path) !== reference.header(origin + path)) return false;
      }
      for (const origin of ORIGINS)
        for (const path of PATHS)
          if (fast.header(origin, path) !== reference.header(origin + path)) return false;
      return true;
    }),
    { numRuns: 400 },
  );
  t.end();
});

t.test('a repeated line is remembered; one replaced, deleted or cleared is not', async (t) => {
  const jar = new UserCookies();
  const url = 'http://example.test/app';
  jar.store(url, ['sid=1; Path=/; HttpOnly']);
  jar.store(url, ['sid=1; Path=/; HttpOnly']);
  t.equal(jar.header('http://example.test', '/'), 'sid=1');
  jar.store(url, ['sid=2; Path=/; HttpOnly']);
  jar.store(url, ['sid=1; Path=/; HttpOnly']);
  t.equal(jar.header('http://example.test', '/'), 'sid=1', 'the line stored again after another');
  jar.store(url, ['sid=1; Path=/; Max-Age=0']);
  t.equal(jar.header('http://example.test', '/'), undefined, 'deleted by Max-Age=0');
  jar.store(url, ['sid=1; Path=/; HttpOnly']);
  t.equal(jar.header('http://example.test', '/'), 'sid=1', 'stored again after its deletion');
  jar.clear();
  t.equal(jar.header('http://example.test', '/'), undefined, 'cleared');
  jar.store(url, ['sid=1; Path=/; HttpOnly']);
  t.equal(jar.header('http://example.test', '/'), 'sid=1', 'stored again after a clear');
});
