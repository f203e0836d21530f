// A ShareGPT dataset as the prompt feeder (docs/llm.md, "Prompt datasets"): `format: sharegpt`
// sends each conversation's first human turn as the chat's messages, with max_tokens from the
// reply, and the express app of test/helpers/llm-app.ts counts the prompts' words and the tokens
// it made for each; a bad dataset or a misplaced max_tokens is refused before any request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startLlmApp } from '../helpers/llm-app.js';

const turn = (from: string, value: string) => ({ from, value });

/** Three conversations with a prompt and a reply (12, 20 and 8 characters), one without a reply. */
const DATASET = [
  { id: '1', conversations: [turn('human', 'what is load'), turn('gpt', 'load is work: many.')] },
  { id: '2', conversations: [turn('human', 'hi')] },
  {
    id: '3',
    conversations: [turn('human', 'name three primes'), turn('gpt', 'two, three and five!')],
  },
  {
    id: '4',
    conversations: [turn('human', 'one more question please'), turn('gpt', 'go ahead')],
  },
];

/** Each sent prompt's words and the max_tokens its reply gave (⌈characters / 4⌉). */
const EXPECTED = [
  { words: 3, tokens: 5 },
  { words: 3, tokens: 5 },
  { words: 4, tokens: 2 },
];

const config = (url: string, feeder: string): string =>
  [
    `target: ${url}`,
    'requests: 6',
    'concurrency: 1',
    `feeder: ${feeder}`,
    'endpoints:',
    '  - name: chat',
    '    method: POST',
    '    url: /v1/chat/completions',
    '    stream: sse',
    '    llm: openai-chat',
    '    body: { messages: "{{messages}}", max_tokens: "{{max_tokens}}", stream: true, stream_options: { include_usage: true } }',
  ].join('\n');

t.test('a ShareGPT file feeds the first human turns, max_tokens from the replies', async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 1, gapMs: 1 });
  const dir = t.testdir({});
  writeFileSync(join(dir, 'sharegpt.json'), JSON.stringify(DATASET, null, 2));
  writeFileSync(
    join(dir, 'run.yaml'),
    config(url, '{ file: sharegpt.json, format: sharegpt, max_tokens: reply, order: sequential }'),
  );
  const result = await runInProcess(['run', 'run.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.same(
    served.map((s) => ({ words: s.promptTokens, tokens: s.outputTokens })),
    [...EXPECTED, ...EXPECTED],
    'each request had its conversation’s prompt and max_tokens, in order, twice',
  );
  const json = JSON.parse(result.stdout) as { llm?: { output_tokens: number } };
  t.equal(
    json.llm?.output_tokens,
    served.reduce((n, s) => n + s.outputTokens, 0),
  );
});

t.test(
  'a bad ShareGPT file, or max_tokens without it, is refused before any request',
  async (t) => {
    const { url, served } = await startLlmApp(t, { prefillMs: 1, gapMs: 1 });
    const dir = t.testdir({});
    const bad = [DATASET[0], { conversations: [{ from: 'human', value: 3 }] }];
    writeFileSync(join(dir, 'bad.json'), `[\n${bad.map((c) => JSON.stringify(c)).join(',\n')}\n]`);
    writeFileSync(join(dir, 'p.ndjson'), '{"messages": [], "max_tokens": 1}\n');
    writeFileSync(join(dir, 'bad.yaml'), config(url, '{ file: bad.json, format: sharegpt }'));
    writeFileSync(join(dir, 'misplaced.yaml'), config(url, '{ file: p.ndjson, max_tokens: 5 }'));
    const file = await runInProcess(['run', 'bad.yaml'], { cwd: dir });
    t.equal(file.code, 1);
    t.match(file.stderr, /bad\.json:3:1: .*expected a turn \{ from, value \} of strings/);
    t.notMatch(file.stderr, /\n\s+at /, 'no stack trace');
    const key = await runInProcess(['run', 'misplaced.yaml'], { cwd: dir });
    t.equal(key.code, 1);
    t.match(
      key.stderr,
      /misplaced\.yaml:4:\d+: feeder\.max_tokens: .*max_tokens only with format: sharegpt/,
    );
    t.equal(served.length, 0, 'nothing was sent');
  },
);
