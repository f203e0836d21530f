// CPU per response of the cookie jar (issue 47): a response that sets the same session cookie
// and the request after it reading the Cookie header, through the jar (runtime/http/cookie-jar.ts,
// with its fast path) and through tough-cookie alone, as the jar did before. Rounds alternate;
// the medians are printed, in µs a response.
//   node --import tsx bench/cookie-jar.bench.ts [ROUNDS=7] [RESPONSES=50000]
import { Cookie, CookieJar } from 'tough-cookie';
import { UserCookies } from '../runtime/http/cookie-jar.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const RESPONSES = Number(process.argv[3] ?? 50_000);
const LINE = 'sid=3f2a9c41e7a2b58d; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600';
const ORIGIN = 'https://shop.example.test';
const PATH = '/cart';

function withJar(): number {
  const jar = new UserCookies();
  const started = process.hrtime.bigint();
  for (let i = 0; i < RESPONSES; i++) {
    jar.store(ORIGIN + PATH, [LINE]);
    jar.header(ORIGIN, PATH);
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / RESPONSES;
}

function toughAlone(): number {
  const jar = new CookieJar();
  const started = process.hrtime.bigint();
  for (let i = 0; i < RESPONSES; i++) {
    const cookie = Cookie.parse(LINE);
    if (cookie !== undefined) jar.setCookieSync(cookie, ORIGIN + PATH, { ignoreError: true });
    jar.getCookieStringSync(ORIGIN + PATH);
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / RESPONSES;
}

const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const jar: number[] = [];
const tough: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  tough.push(toughAlone());
  jar.push(withJar());
}
console.log(`tough-cookie alone: ${median(tough).toFixed(2)} µs a response`);
console.log(`the jar (fast path): ${median(jar).toFixed(2)} µs a response`);
