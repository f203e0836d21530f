// LLM endpoints (docs/llm.md) run in process against the express app of test/helpers/llm-app.ts:
// token counts and goodput as the server counted them, a TTFT threshold that the server's first
// tokens break failing the run, a whole (not streamed) response's usage, Anthropic's event stream,
// a layout of one's own, and the refusals of a bad llm: key (llm-scenario.test.ts: the TypeScript
// call's llm option).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runInProcess, type CliResult } from '../helpers/in-process-cli.js';
import { startLlmApp, type LlmJson, type Served } from '../helpers/llm-app.js';

interface Json {
  readonly failures: number;
  readonly llm?: LlmJson;
  readonly sse?: { readonly events: number };
  readonly checks?: { readonly passes: number; readonly fails: number };
  readonly thresholds?: { readonly results: readonly { threshold: string; pass: boolean }[] };
}

/** Runs `lines` as a configuration file in process with --json-output. */
async function run(
  t: Test,
  lines: readonly string[],
  file = 'run.yaml',
): Promise<{ json: Json; result: CliResult }> {
  const dir = t.testdir({});
  writeFileSync(join(dir, file), lines.join('\n'));
  const result = await runInProcess(['run', file, '--json-output'], { cwd: dir });
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return { json: JSON.parse(result.stdout) as Json, result };
}

const sum = (served: readonly Served[], key: 'promptTokens' | 'outputTokens'): number =>
  served.reduce((n, s) => n + s[key], 0);

/** A POST of `body` (a flow mapping's inside) to `url` with `llm`, as one endpoint named llm. */
function endpoint(url: string, llm: string, body: string, more: readonly string[] = []): string[] {
  return [
    '  - { url: /warm, method: POST, body: { warm: true }, setup: true }',
    '  - name: llm',
    '    method: POST',
    `    url: ${url}`,
    `    llm: ${llm}`,
    `    body: { messages: [{ role: user, content: "two words" }], ${body} }`,
    ...more,
  ];
}

t.test(
  'a TTFT threshold the first tokens break fails the run; the first event passes its own',
  async (t) => {
    // The role chunk comes at once and the first token a second later: the first event is no
    // token. A second apart, a busy machine cannot blur the two.
    const { url, served } = await startLlmApp(t, { prefillMs: 0, gapMs: 1000 });
    const { json, result } = await run(t, [
      `target: ${url}`,
      'requests: 3',
      'concurrency: 3',
      'thresholds:',
      '  - "sse_time_to_first_event:p50 < 600"',
      '  - "llm_time_to_first_token:p50 < 600"',
      '  - "llm_goodput:rate > 0.5"',
      'endpoints:',
      ...endpoint(
        '/v1/chat/completions',
        '{ api: openai-chat, goodput: { ttft: 600ms } }',
        'max_tokens: 2, stream: true',
        ['    stream: sse'],
      ),
    ]);
    t.equal(result.code, 1, 'a failed threshold fails the run');
    t.ok(
      served.every((s) => s.firstTokenMs >= 600),
      'every first token came after 600 ms by the server',
    );
    t.same(
      json.thresholds?.results.map((r) => [r.threshold, r.pass]),
      [
        ['sse_time_to_first_event:p50 < 600', true],
        ['llm_time_to_first_token:p50 < 600', false],
        ['llm_goodput:rate > 0.5', false],
      ],
    );
    t.same(json.llm?.goodput, { rate: 0, count: 0, total: 3 }, 'no request met the TTFT SLO');
    t.equal(json.llm?.output_tokens, sum(served, 'outputTokens'));
  },
);

t.test("a whole response's usage gives its tokens and end-to-end latency, no TTFT", async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 5, gapMs: 2 });
  const { json, result } = await run(t, [
    `target: ${url}`,
    'requests: 3',
    'concurrency: 1',
    'endpoints:',
    ...endpoint(
      '/v1/chat/completions',
      '{ api: openai-chat, goodput: { e2e: 10s } }',
      'max_tokens: 4, stream: false',
    ),
  ]);
  t.equal(result.code, 0, result.stderr);
  const llm = json.llm!;
  t.equal(llm.input_tokens, sum(served, 'promptTokens'), "input tokens: the server's");
  t.equal(llm.output_tokens, sum(served, 'outputTokens'), "output tokens: the server's");
  t.equal(served.length, 3);
  const shortest = Math.min(...served.map((s) => s.e2eMs));
  t.ok(
    llm.request_duration_ms!.p50 >= shortest,
    `E2E p50 ${llm.request_duration_ms!.p50} ms, the server's shortest ${shortest.toFixed(3)} ms`,
  );
  t.equal(llm.time_to_first_token_ms, null, 'a whole response has no first token');
  t.equal(llm.time_per_output_token_ms, null, 'nor a time per token');
  t.same(llm.goodput, { rate: 1, count: 3, total: 3 });
  // Every request made 4 tokens: the median request's tokens/s is 4 over the median E2E.
  const perRequest = llm.request_output_tokens_per_sec!.p50;
  const expected = 4 / (llm.request_duration_ms!.p50 / 1000);
  t.ok(
    Math.abs(perRequest - expected) <= expected * 0.003,
    `output tokens/s per request p50 ${perRequest}, 4 tokens over E2E p50: ${expected.toFixed(3)}`,
  );
});

t.test(
  "Anthropic's stream: tokens from content_block_delta, usage from message_start and message_delta",
  async (t) => {
    const { url, served } = await startLlmApp(t, { prefillMs: 5, gapMs: 5 });
    const { json, result } = await run(t, [
      `target: ${url}`,
      'requests: 3',
      'concurrency: 1',
      'endpoints:',
      ...endpoint('/v1/messages', 'anthropic-messages', 'max_tokens: 5, stream: true', [
        '    stream: sse',
        // What checks read is the last event that held a count: message_delta's usage.
        '    checks: [{ name: usage, json: $.usage.output_tokens, equals: 5 }]',
      ]),
    ]);
    t.equal(result.code, 0, result.stderr);
    t.equal(json.llm?.input_tokens, sum(served, 'promptTokens'), "input tokens: message_start's");
    t.equal(json.llm?.output_tokens, sum(served, 'outputTokens'), "output tokens: message_delta's");
    t.equal(
      json.sse?.events,
      3 * (5 + 6),
      'message_start, content_block_start, ping, stop, delta and message_stop are events',
    );
    t.match(json.checks, { passes: 3, fails: 0 });
    t.ok(
      json.llm!.time_to_first_token_ms!.p50 >= Math.min(...served.map((s) => s.firstTokenMs)),
      'TTFT runs to the first delta, not to message_start or the ping',
    );
  },
);

t.test(
  'the text, Markdown and HTML reports have an LLM section; a run without one has none',
  async (t) => {
    const { url } = await startLlmApp(t, { prefillMs: 2, gapMs: 3 });
    const dir = t.testdir({
      'llm.yaml': [
        `target: ${url}`,
        'requests: 2',
        'concurrency: 1',
        'report: { html: report.html, summary_md: summary.md }',
        'endpoints:',
        ...endpoint(
          '/v1/chat/completions',
          '{ api: openai-chat, goodput: { tpot: 10s } }',
          'max_tokens: 3, stream: true, stream_options: { include_usage: true }',
          ['    stream: sse'],
        ),
      ].join('\n'),
      'plain.yaml': [
        `target: ${url}`,
        'requests: 1',
        'report: { html: plain.html, summary_md: plain.md }',
        'endpoints:',
        '  - { url: /warm, method: POST }',
      ].join('\n'),
    });
    const llm = await runInProcess(['run', 'llm.yaml'], { cwd: dir });
    t.equal(llm.code, 0, llm.stderr);
    t.match(
      llm.stdout,
      /LLM endpoints \(token streams\):\n {2}time to first token \(TTFT\): p50 [\d.]+ms/,
    );
    t.match(llm.stdout, / {2}Tokens: 4 input, 6 output \([\d.]+ output tokens\/s\)/);
    t.match(
      llm.stdout,
      / {2}Goodput: 2 of 2 requests met the SLOs \(100\.0%, [\d.]+ good requests\/s\)/,
    );
    t.notMatch(llm.stdout, /LLM time to first token:/, 'the LLM figures once, in their section');
    const markdown = readFileSync(join(dir, 'summary.md'), 'utf8');
    t.match(markdown, /### LLM endpoints\n\n\| +\| p50 ms/);
    t.match(markdown, /Tokens: 4 input, 6 output/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    t.match(html, /<section id="llm"/);
    t.match(html, /time per output token \(TPOT\)/);
    const plain = await runInProcess(['run', 'plain.yaml'], { cwd: dir });
    t.equal(plain.code, 0, plain.stderr);
    t.notMatch(plain.stdout, /LLM/);
    t.notMatch(readFileSync(join(dir, 'plain.md'), 'utf8'), /LLM/);
    t.notMatch(readFileSync(join(dir, 'plain.html'), 'utf8'), /id="llm"/);
  },
);

t.test(
  'a layout of its own: output path and end marker, tokens counted from the events',
  async (t) => {
    const { url, served } = await startLlmApp(t, { prefillMs: 2, gapMs: 3 });
    const { json, result } = await run(t, [
      `target: ${url}`,
      'requests: 2',
      'concurrency: 1',
      'endpoints:',
      ...endpoint(
        '/v1/chat/completions',
        '{ output: "$.choices[0].delta.content", end: "[DONE]" }',
        'max_tokens: 3, stream: true',
        ['    stream: sse'],
      ),
    ]);
    t.equal(result.code, 0, result.stderr);
    t.equal(
      json.llm?.output_tokens,
      sum(served, 'outputTokens'),
      'one token an event that has content',
    );
    t.equal(json.llm?.input_tokens, 0, 'no usage path: no input tokens');
  },
);

for (const [name, llm, more, error] of [
  [
    'an unknown preset',
    'gpt',
    [],
    /llm.*one of openai-chat, openai-completions, anthropic-messages/,
  ],
  [
    'a path that is no singular query',
    '{ api: openai-chat, output: "$..content" }',
    [],
    /output.*only names and indices/,
  ],
  ['no output without a preset', '{ end: "[DONE]" }', [], /llm.*api \(a preset\) or output/],
  [
    'with stream: chunks',
    'openai-chat',
    ['    stream: chunks'],
    /llm with stream: sse, or without stream/,
  ],
  [
    'a goodput without an SLO',
    '{ api: openai-chat, goodput: {} }',
    [],
    /goodput.*at least one of ttft, tpot, e2e/,
  ],
  [
    'a goodput SLO that is no duration',
    '{ api: openai-chat, goodput: { ttft: fast } }',
    [],
    /llm: expected goodput\.ttft: invalid duration "fast"/,
  ],
] as const)
  t.test(`validate refuses llm: ${name}`, async (t) => {
    const dir = t.testdir({
      'load.yaml': [
        'target: http://127.0.0.1:9',
        'endpoints:',
        ...endpoint('/v1/chat/completions', llm, 'stream: true', more),
      ].join('\n'),
    });
    const result = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
    t.equal(result.code, 1, result.stderr);
    t.match(result.stderr, /load\.yaml:\d+/, 'names the file and line');
    t.match(result.stderr, error);
    t.notMatch(result.stderr, /^\s+at /m, 'no stack trace');
  });
