// A prompt dataset (NDJSON of chat messages with each prompt's max_tokens, the layout docs/llm.md
// shows converting ShareGPT to) through the existing feeder, in two scenarios of different
// concurrency, one after the other, as a sweep's levels: the server gets every prompt with its
// own max_tokens, the token counts are the server's, and the reports put the levels side by side.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startLlmApp } from '../helpers/llm-app.js';

interface Llm {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

interface Json {
  readonly failures: number;
  readonly llm?: Llm;
  readonly scenarios?: Readonly<Record<string, { readonly total: number; readonly llm?: Llm }>>;
}

const PROMPTS = [
  { messages: [{ role: 'user', content: 'what is a load test' }], max_tokens: 2 },
  { messages: [{ role: 'user', content: 'name three prime numbers' }], max_tokens: 3 },
  { messages: [{ role: 'user', content: 'hello' }], max_tokens: 4 },
];

t.test('a prompt dataset at two concurrency levels, reported side by side', async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 5, gapMs: 5 });
  const dir = t.testdir({
    'prompts.ndjson': PROMPTS.map((p) => JSON.stringify(p)).join('\n') + '\n',
    'sweep.yaml': [
      `target: ${url}`,
      'feeder: { file: prompts.ndjson, order: sequential }',
      'report: { summary_md: summary.md }',
      'endpoints:',
      '  - name: chat',
      '    method: POST',
      '    url: /v1/chat/completions',
      '    stream: sse',
      '    llm: { api: openai-chat, goodput: { ttft: 10s } }',
      '    body: { messages: "{{messages}}", max_tokens: "{{max_tokens}}", stream: true,',
      '            stream_options: { include_usage: true } }',
      'scenarios:',
      '  c1: { executor: shared-iterations, vus: 1, iterations: 3 }',
      // The second level starts once the first is over (3 streams of at most 30 ms, given 3 s
      // for a busy machine).
      '  c3: { executor: shared-iterations, vus: 3, iterations: 6, start_time: 3s }',
    ].join('\n'),
  });
  const result = await runInProcess(['run', 'sweep.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  t.equal(served.length, 9, 'nine streams');
  const asked = PROMPTS.map((p) => p.max_tokens);
  t.ok(
    served.every((s) => asked.includes(s.outputTokens)),
    "each stream made its prompt's max_tokens",
  );
  t.same(
    [...new Set(served.map((s) => s.outputTokens))].sort(),
    asked,
    'every prompt of the dataset was sent',
  );
  const sum = served.reduce((n, s) => n + s.outputTokens, 0);
  t.equal(json.llm?.output_tokens, sum, "output tokens: the server's");
  t.equal(
    json.llm?.input_tokens,
    served.reduce((n, s) => n + s.promptTokens, 0),
  );
  const c1 = json.scenarios?.['c1']?.llm;
  const c3 = json.scenarios?.['c3']?.llm;
  t.equal((c1?.output_tokens ?? 0) + (c3?.output_tokens ?? 0), sum, 'each level its own share');
  t.equal(c1?.output_tokens, 2 + 3 + 4, 'the first level: the dataset once, in order');
  const markdown = readFileSync(join(dir, 'summary.md'), 'utf8');
  t.match(markdown, /\| scenario \| req\/s \| TTFT p50 ms .*\n.*\n\| c1 +\|.*\n\| c3 +\|/);
});

t.test('scenarios/llm-chat.yaml, the example, validates', async (t) => {
  const result = await runInProcess([
    'validate',
    join(import.meta.dirname, '../../scenarios/llm-chat.yaml'),
  ]);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /endpoints\[0\]\.llm\.api +openai-chat/);
});
