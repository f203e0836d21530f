// LLM token streams (docs/llm.md) against an OpenAI-compatible express app that logs its own
// figures: when each request arrived, when it wrote each token, how many tokens it made. barrage's
// TTFT, ITL, TPOT, end-to-end latency and token counts are compared with the server's, never with
// the delays the server was asked for. The built CLI runs in its own process, so the server's
// clock is not held up by barrage's work.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLlmApp, type JsonTrend, type LlmJson, type Served } from '../helpers/llm-app.js';
import { median } from '../helpers/paced-stream-server.js';
import { runJsonConfig } from '../helpers/run-cli.js';

interface Json {
  readonly failures: number;
  readonly llm?: LlmJson;
  readonly sse?: { readonly events: number };
  readonly endpoints: readonly {
    readonly name: string;
    readonly waiting_ms: JsonTrend | null;
    readonly llm?: LlmJson;
  }[];
  readonly checks?: { readonly passes: number; readonly fails: number };
}

/** A line of the HTTP debug log. */
interface Logged {
  readonly endpoint: string;
  readonly response: { readonly headers: Readonly<Record<string, string>> };
  readonly timings: {
    readonly waiting_ms: number;
    readonly duration_ms: number;
    readonly first_token_ms: number;
  };
}

/** How far a p50 may lie from the server's median on loopback (the measure of truth). */
const TRUTH_MS = 1;

const STREAMS = 9;
const TOKENS = 5;

/** A chat endpoint of the app, streamed, asking for `TOKENS` tokens. */
function chatConfig(url: string, usage: boolean): string {
  return [
    `target: ${url}`,
    `requests: ${STREAMS}`,
    'concurrency: 1',
    'endpoints:',
    // A set-up request opens the connection and readies the app's JSON parser.
    '  - { url: /warm, method: POST, body: { warm: true }, setup: true }',
    '  - name: chat',
    '    method: POST',
    '    url: /v1/chat/completions',
    '    stream: sse',
    '    llm: { api: openai-chat, goodput: { ttft: 10s, tpot: 5s } }',
    `    body: { model: m, max_tokens: ${TOKENS}, stream: true, stream_options: { include_usage: ${usage} },`,
    '            messages: [{ role: user, content: "say hello to the world" }] }',
    ...(usage ? ['    checks: [{ name: usage, json: $.usage.total_tokens, equals: 10 }]'] : []),
  ].join('\n');
}

/** The server's TPOT of a request: from its first token's write to its last write, per token after the first. */
const serverTpot = (s: Served): number => (s.e2eMs - s.firstTokenMs) / (s.outputTokens - 1);

t.test(
  'an OpenAI chat stream: TTFT, ITL, TPOT, E2E and tokens as the server measured them',
  async (t) => {
    const { url, served } = await startLlmApp(t, { prefillMs: 20, gapMs: 6 });
    const { json, result, dir } = await runJsonConfig<Json>(t, chatConfig(url, true), [
      '--http-debug=all',
      '--http-debug-file',
      'debug.ndjson',
    ]);
    t.equal(result.code, 0, result.stderr);
    t.equal(json.failures, 0);
    const streams = served.filter((s) => s.path === '/v1/chat/completions');
    t.equal(streams.length, STREAMS, 'the server streamed every request');
    const llm = json.llm!;
    t.same(
      json.endpoints.find((e) => e.name === 'chat')?.llm,
      llm,
      "the chat endpoint's figures are the run's",
    );
    t.equal(
      llm.output_tokens,
      streams.reduce((n, s) => n + s.outputTokens, 0),
      "output tokens: the server's",
    );
    t.equal(
      llm.input_tokens,
      streams.reduce((n, s) => n + s.promptTokens, 0),
      "input tokens: the server's",
    );
    t.match(json.checks, { passes: STREAMS, fails: 0 }, 'checks read the usage event, not [DONE]');
    t.equal(
      json.sse?.events,
      STREAMS * (TOKENS + 4),
      'role, tokens, finish, usage and [DONE] are events',
    );
    // The app writes its headers as a request arrives: the time to first byte is the request's way
    // there and the headers' way back, which the server cannot see. Less that, TTFT is the server's
    // own time (and TPOT, which E2E makes, its own below). The HTTP debug log gives each request's (paired by x-request-id): a median
    // of figures of different requests would move with the machine's load.
    const logged = readFileSync(join(dir, 'debug.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Logged)
      .filter((l) => l.endpoint === 'chat');
    const byId = new Map(streams.map((s) => [s.id, s]));
    const paired = logged.map((l) => ({
      ours: l,
      theirs: byId.get(l.response.headers['x-request-id']!)!,
    }));
    t.equal(paired.length, STREAMS, 'every stream logged, each paired with its line on the server');
    const close = (what: string, ours: number, theirs: number, within: number): void =>
      void t.ok(
        Math.abs(ours - theirs) <= within,
        `${what}: barrage ${ours.toFixed(3)} ms, the server ${theirs.toFixed(3)} ms`,
      );
    // On loopback every request's headers come back at once: how much later than the fastest the
    // median request read them is how late a busy machine's client was, which the figures read
    // from its clock carry too. An idle machine is held to TRUTH_MS.
    const waits = paired.map(({ ours }) => ours.timings.waiting_ms);
    const slack = TRUTH_MS + median(waits) - Math.min(...waits);
    const lessTransit = (ms: (l: Logged) => number): number[] =>
      paired.map(({ ours, theirs }) => ms(ours) - ours.timings.waiting_ms - theirs.firstTokenMs);
    close(
      'TTFT less transit, p50 of each request against its own',
      median(lessTransit((l) => l.timings.first_token_ms)),
      0,
      slack,
    );
    // The run's figures are the requests' own, within HDR precision (0.1 %).
    const firsts = logged.map((l) => l.timings.first_token_ms);
    close(
      'TTFT p50 of the run and of its requests',
      llm.time_to_first_token_ms!.p50,
      median(firsts),
      median(firsts) / 1000,
    );
    close(
      'ITL p50',
      llm.inter_token_latency_ms!.p50,
      median(streams.flatMap((s) => s.gapsMs)),
      slack,
    );
    close('TPOT p50', llm.time_per_output_token_ms!.p50, median(streams.map(serverTpot)), slack);
    t.same(
      llm.goodput,
      { rate: 1, count: STREAMS, total: STREAMS },
      'every request met the loose SLOs',
    );
  },
);

t.test('without a usage chunk, output tokens are the events that carry content', async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 5, gapMs: 5 });
  const { json, result } = await runJsonConfig<Json>(t, chatConfig(url, false));
  t.equal(result.code, 0, result.stderr);
  const streams = served.filter((s) => s.path === '/v1/chat/completions');
  t.equal(
    json.llm?.output_tokens,
    streams.reduce((n, s) => n + s.outputTokens, 0),
    "the server's tokens",
  );
  t.equal(json.llm?.input_tokens, 0, 'no usage: no input tokens counted');
  t.equal(
    json.sse?.events,
    STREAMS * (TOKENS + 3),
    'the role, finish and [DONE] events are no tokens',
  );
});
