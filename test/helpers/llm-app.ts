/**
 * An LLM inference server for the llm tests, built with express on 127.0.0.1:0, that speaks the
 * OpenAI and Anthropic wire formats and logs what it measured of each request by its own clock
 * (performance.now(): the request's arrival, each token's write), so a test compares barrage's
 * figures with the server's, never with the delays it asked for.
 *
 *   POST /v1/chat/completions  { messages, max_tokens, stream, stream_options.include_usage }
 *     stream: a role chunk after `prefillMs`; then `max_tokens` chunks of one token each,
 *     `gapMs` apart (the first `gapMs` after the role chunk); a finish chunk; with include_usage a
 *     usage chunk (choices: []); `data: [DONE]`. Else one JSON response when the last token is made.
 *   POST /v1/messages          Anthropic's stream: message_start (input usage), content_block_start,
 *     ping, `max_tokens` content_block_delta events, content_block_stop, message_delta (output
 *     usage), message_stop.
 *   POST /warm                 "ok", not a stream: a set-up request readies the JSON parser.
 *
 * Every response carries x-request-id, the request's number, which `served` logs. Prompt tokens
 * are the words of the messages' contents.
 */
import express, { type Request, type Response } from 'express';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Test } from 'tap';

/** What the server measured of one request. */
export interface Served {
  /** The x-request-id the response carried. */
  readonly id: string;
  readonly path: string;
  readonly promptTokens: number;
  readonly outputTokens: number;
  /** ms from the request's arrival to its first token's write. */
  readonly firstTokenMs: number;
  /** ms between consecutive tokens' writes. */
  readonly gapsMs: readonly number[];
  /** ms from the arrival to the stream's last write (its end marker) or the response's, as it began. */
  readonly e2eMs: number;
}

/** The server's pacing. */
export interface LlmAppOptions {
  readonly prefillMs: number;
  readonly gapMs: number;
}

interface Body {
  readonly messages?: readonly { readonly content?: string }[];
  readonly max_tokens?: number;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
}

type Frame = (i: number) => string;

/** The token `i` of an answer. */
const token = (i: number): string => (i === 0 ? 'Hello' : ` w${i}`);

function promptTokens(body: Body): number {
  const text = (body.messages ?? []).map((m) => m.content ?? '').join(' ');
  return text.split(/\s+/).filter((w) => w !== '').length;
}

const sse = (data: unknown, event?: string): string =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** Writes `before`, then `count` tokens `gapMs` apart, then `after`; logs what it did. */
function paced(
  res: Response,
  options: LlmAppOptions,
  prefillMs: number,
  count: number,
  frames: { before: () => string; token: Frame; after: () => string },
  done: (firstMs: number, gaps: number[], endMs: number) => void,
): void {
  const arrived = performance.now();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const gaps: number[] = [];
  let first = -1;
  let last = 0;
  let i = 0;
  const next = (): void => {
    const now = performance.now();
    if (i === 0) first = now - arrived;
    else gaps.push(now - last);
    last = now;
    res.write(frames.token(i++));
    if (i < count) setTimeout(next, options.gapMs);
    else {
      const end = performance.now() - arrived;
      res.end(frames.after());
      done(first, gaps, end);
    }
  };
  setTimeout(() => {
    res.write(frames.before());
    setTimeout(next, options.gapMs);
  }, prefillMs);
}

/** A trend of the JSON result, as the LLM tests read it. */
export interface JsonTrend {
  readonly p50: number;
  readonly max: number;
}

/** The JSON result's llm block (docs/reports.md, "LLM metrics"), as the LLM tests read it. */
export interface LlmJson {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly goodput: {
    readonly rate: number | null;
    readonly count: number;
    readonly total: number;
  };
  readonly time_to_first_token_ms: JsonTrend | null;
  readonly inter_token_latency_ms: JsonTrend | null;
  readonly time_per_output_token_ms: JsonTrend | null;
  readonly request_duration_ms: JsonTrend | null;
  readonly request_output_tokens_per_sec: JsonTrend | null;
}

/** What a response's pacing calls once it ends: its line in `served`, with its own timings. */
function logTo(
  served: Served[],
  path: string,
  res: Response,
  promptTokens: number,
  outputTokens: number,
): (firstTokenMs: number, gapsMs: number[], e2eMs: number) => void {
  return (firstTokenMs, gapsMs, e2eMs) =>
    void served.push({
      id: res.getHeader('x-request-id') as string,
      path,
      promptTokens,
      outputTokens,
      firstTokenMs,
      gapsMs,
      e2eMs,
    });
}

/** Starts the server, closed in the test's teardown: its url and what it served, in order. */
export async function startLlmApp(
  t: Test,
  options: LlmAppOptions,
): Promise<{ url: string; served: Served[] }> {
  const served: Served[] = [];
  let requests = 0;
  const app = express();
  // Each response says which request it answers (x-request-id), as its line in served.
  app.use((_req, res, next) => {
    res.setHeader('x-request-id', String(requests++));
    next();
  });
  app.use(express.json());
  app.post('/warm', (_req, res) => void res.send('ok'));
  app.post('/v1/chat/completions', (req: Request<object, unknown, Body>, res) => {
    const body = req.body;
    const count = body.max_tokens ?? 8;
    const prompt = promptTokens(body);
    const usage = { prompt_tokens: prompt, completion_tokens: count, total_tokens: prompt + count };
    const log = logTo(served, req.path, res, prompt, count);
    if (body.stream !== true) {
      const arrived = performance.now();
      setTimeout(
        () => {
          res.json({
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'Hello' },
                finish_reason: 'length',
              },
            ],
            usage,
          });
          log(-1, [], performance.now() - arrived);
        },
        options.prefillMs + count * options.gapMs,
      );
      return;
    }
    const chunk = (delta: object, finish: string | null = null): object => ({
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    paced(
      res,
      options,
      options.prefillMs,
      count,
      {
        before: () => sse(chunk({ role: 'assistant', content: '' })),
        token: (i) => sse(chunk({ content: token(i) })),
        after: () =>
          sse(chunk({}, 'length')) +
          (body.stream_options?.include_usage === true ? sse({ choices: [], usage }) : '') +
          sse('[DONE]'),
      },
      log,
    );
  });
  app.post('/v1/messages', (req: Request<object, unknown, Body>, res) => {
    const body = req.body;
    const count = body.max_tokens ?? 8;
    const prompt = promptTokens(body);
    paced(
      res,
      options,
      options.prefillMs,
      count,
      {
        before: () =>
          sse(
            {
              type: 'message_start',
              message: { usage: { input_tokens: prompt, output_tokens: 1 } },
            },
            'message_start',
          ) +
          sse(
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            'content_block_start',
          ) +
          sse({ type: 'ping' }, 'ping'),
        token: (i) =>
          sse(
            {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: token(i) },
            },
            'content_block_delta',
          ),
        after: () =>
          sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
          sse(
            {
              type: 'message_delta',
              delta: { stop_reason: 'max_tokens' },
              usage: { output_tokens: count },
            },
            'message_delta',
          ) +
          sse({ type: 'message_stop' }, 'message_stop'),
      },
      logTo(served, req.path, res, prompt, count),
    );
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, served };
}
