/**
 * A scripted token endpoint for auth tests: a real node:http server on 127.0.0.1:0 whose answer to
 * each POST is decided by the test (status, JSON body, or a promise to hold the answer back). It
 * keeps every request it got, so tests can check what a client sent.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What to answer. */
export interface ScriptedReply {
  readonly status: number;
  readonly json?: unknown;
  /** Raw text instead of JSON. */
  readonly text?: string;
}

/** A running scripted server. */
export interface TokenServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts the server; `reply` gets the request and its 0-based index. */
export async function startTokenServer(
  reply: (request: ReceivedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>,
): Promise<TokenServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      void Promise.resolve(reply(received, requests.length - 1)).then((answer) => {
        const body = answer.text ?? JSON.stringify(answer.json ?? {});
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
