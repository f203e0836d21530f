import t from 'tap';
import { request } from 'undici';
import { createServer, type Server } from 'node:net';
import { classifyError, classifyStatus } from '../../runtime/failure/error-kind.js';

t.test('kinds come from codes, walking causes', async (t) => {
  const table: [unknown, string][] = [
    [{ code: 'ECONNREFUSED' }, 'refused'],
    [{ code: 'UND_ERR_SOCKET', cause: { code: 'ECONNRESET' } }, 'reset'],
    [{ code: 'X', cause: { code: 'ENOTFOUND' } }, 'dns'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls'],
    [{ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'tls'],
    [{ code: 'BARRAGE_TIMEOUT' }, 'timeout'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT' }, 'timeout'],
    [new Error('ECONNREFUSED in the message only'), 'other'],
    ['a string', 'other'],
  ];
  for (const [error, kind] of table) t.equal(classifyError(error), kind);
  t.equal(classifyStatus(200), undefined);
  t.equal(classifyStatus(399), undefined);
  t.equal(classifyStatus(404), 'http_4xx');
  t.equal(classifyStatus(503), 'http_5xx');
});

t.test('real undici failures classify by code', async (t) => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  const refused = await request(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
  t.equal(classifyError(refused), 'refused');

  const resetter: Server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
  t.teardown(() => resetter.close());
  const reset = await request(
    `http://127.0.0.1:${(resetter.address() as { port: number }).port}/`,
  ).catch((e: unknown) => e);
  t.equal(classifyError(reset), 'reset');
});
