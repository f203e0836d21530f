// The ShareGPT reader (dsl/feeder/read-sharegpt.ts): a conversation's first human turn followed by
// a gpt turn becomes a record (prompt, messages, max_tokens), others are skipped as vLLM's
// benchmark skips them; the file is read in chunks of any size with the same records and lines;
// a bad file is an error naming its line.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { readFeeder } from '../../dsl/feeder/read-feeder.js';
import type { ShareGptMaxTokens } from '../../dsl/feeder/read-sharegpt.js';
import { rowsOf } from '../helpers/feeder-table.js';

const turn = (from: string, value: string) => ({ from, value });

const DATASET = [
  {
    id: 'a',
    conversations: [turn('human', 'What is TTFT?'), turn('gpt', 'The time to the first token.')],
  },
  // Fewer than two turns, and a gpt turn first with no human turn followed by a gpt one: skipped.
  { id: 'b', conversations: [turn('human', 'alone')] },
  { id: 'c', conversations: [turn('gpt', 'hi'), turn('human', 'no reply')] },
  // The first human turn with a reply, after a system turn: the prompt is the human one.
  {
    id: 'd',
    conversations: [
      turn('system', 'be brief'),
      turn('human', 'Say ✓'),
      turn('gpt', '✓✓✓✓✓'),
      turn('human', 'more'),
    ],
  },
];

/** The dataset written one conversation a line (line 2 is the first), read `chunkBytes` at a time. */
function read(t: Test, text: string, maxTokens: ShareGptMaxTokens, chunkBytes?: number) {
  const dir = t.testdir({});
  const path = join(dir, 'sharegpt.json');
  writeFileSync(path, text);
  return readFeeder({
    path,
    shown: 'sharegpt.json',
    format: 'sharegpt',
    maxTokens,
    ...(chunkBytes === undefined ? {} : { chunkBytes }),
  });
}

const lines = (items: readonly unknown[]): string =>
  `[\n${items.map((c) => JSON.stringify(c)).join(',\n')}\n]\n`;

t.test('the first human turn with a reply is the prompt; others are skipped', async (t) => {
  for (const chunkBytes of [undefined, 1, 7, 64]) {
    const result = read(t, lines(DATASET), 'reply', chunkBytes);
    t.ok(result.ok, `read ${chunkBytes ?? 'default'} bytes at a time`);
    if (!result.ok) continue;
    t.same(result.value.records.fields, ['prompt', 'messages', 'max_tokens']);
    t.same(rowsOf(result.value.records), [
      {
        prompt: 'What is TTFT?',
        messages: '[{"role":"user","content":"What is TTFT?"}]',
        max_tokens: '7',
      },
      { prompt: 'Say ✓', messages: '[{"role":"user","content":"Say ✓"}]', max_tokens: '2' },
    ]);
  }
});

t.test('max_tokens: a fixed count, or no field without it', async (t) => {
  const fixed = read(t, lines(DATASET), 128);
  if (fixed.ok)
    t.same(
      rowsOf(fixed.value.records).map((r) => r.max_tokens),
      ['128', '128'],
    );
  const none = read(t, lines(DATASET), undefined);
  if (none.ok) t.same(none.value.records.fields, ['prompt', 'messages']);
});

/** Each bad file, and the line and message its one error must have. */
const BAD: readonly [string, string, number | undefined, RegExp][] = [
  ['not an array', '{"conversations": []}', undefined, /a JSON array of conversations/],
  ['a conversation that is no object', lines([DATASET[0], 'text']), 3, /a conversation \{/],
  [
    'conversations missing',
    lines([DATASET[0], DATASET[1], { id: 'x' }]),
    4,
    /conversations: a list/,
  ],
  [
    'a turn without value',
    lines([DATASET[0], { conversations: [{ from: 'human' }] }]),
    3,
    /a turn \{ from, value \}/,
  ],
  ['broken JSON', '[\n{"conversations": [}\n]', 2, /a JSON array of conversations/],
  ['cut short', lines(DATASET).slice(0, 40), undefined, /a JSON array of conversations/],
  ['empty', '[]', undefined, /at least one record/],
];

t.test('a bad file is an error naming the file and the line', async (t) => {
  for (const [name, text, line, message] of BAD) {
    for (const chunkBytes of [undefined, 5]) {
      const result = read(t, text, undefined, chunkBytes);
      t.notOk(result.ok, name);
      if (result.ok) continue;
      const issue = result.error[0]!;
      t.equal(issue.code, 'feeder_error', name);
      t.match(issue.source, { kind: 'file', file: 'sharegpt.json' }, name);
      if (line !== undefined) t.match(issue.source, { line }, `${name}: line ${line}`);
      t.match(`${issue.expected} ${issue.actual}`, message, name);
    }
  }
  const bytes = read(t, '[{"conversations": [{"from": "human", "value": "\xff"}]}]', undefined);
  t.notOk(bytes.ok);
});
