// Two levels of a sweep side by side, of different lengths (docs/llm.md, "Sweeps"): each
// scenario's duration is its own active span, from its first request's send to its last one's
// end, and its requests/s and output tokens/s are over that span, not over the run. The express
// app of test/helpers/llm-app.ts counts each level's requests and tokens (two endpoints, a
// max_tokens each) and times them by its own clock: a span holds its requests.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startLlmApp, type LlmJson } from '../helpers/llm-app.js';

interface Level {
  readonly total: number;
  readonly duration_ms: number;
  readonly requests_per_sec: number;
  readonly llm?: LlmJson;
}

interface Json {
  readonly duration_ms: number;
  readonly scenarios: Readonly<Record<'short' | 'long', Level>>;
}

const chat = (name: string, tokens: number): string[] => [
  `  - name: ${name}`,
  '    method: POST',
  '    url: /v1/chat/completions',
  '    stream: sse',
  '    llm: openai-chat',
  `    body: { messages: [{ role: user, content: "go" }], max_tokens: ${tokens}, stream: true, stream_options: { include_usage: true } }`,
];

t.test("each level's rates are over its own active span", async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 5, gapMs: 8 });
  const dir = t.testdir({});
  writeFileSync(
    join(dir, 'levels.yaml'),
    [
      `target: ${url}`,
      'report: { summary_md: summary.md }',
      'endpoints:',
      ...chat('two', 2),
      ...chat('eight', 8),
      'scenarios:',
      '  short: { executor: shared-iterations, vus: 2, iterations: 4, endpoints: [two] }',
      '  long: { executor: shared-iterations, vus: 1, iterations: 4, endpoints: [eight] }',
    ].join('\n'),
  );
  const result = await runInProcess(['run', 'levels.yaml', '--json-output'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  const byLevel = { short: 2, long: 8 } as const;
  for (const [name, tokens] of Object.entries(byLevel) as [keyof typeof byLevel, number][]) {
    const level = json.scenarios[name];
    const mine = served.filter((s) => s.outputTokens === tokens);
    t.equal(level.total, 4, `${name}: the plan's 4 requests`);
    t.equal(mine.length, 4, `${name}: the server saw 4`);
    t.equal(level.llm?.output_tokens, 4 * tokens, `${name}: the server's tokens`);
    const seconds = level.duration_ms / 1000;
    t.ok(seconds > 0 && level.duration_ms <= json.duration_ms, `${name}: a span within the run`);
    // Rounded to 3 decimals in the JSON result.
    t.ok(
      Math.abs(level.requests_per_sec - level.total / seconds) < 0.01,
      `${name}: req/s = requests / its own span (${level.requests_per_sec})`,
    );
    t.ok(
      level.duration_ms >= Math.max(...mine.map((s) => s.e2eMs)),
      `${name}: the span holds its longest request by the server's clock`,
    );
  }
  // One virtual user sends the long level's requests one after another: its span holds them all.
  const longE2e = served.filter((s) => s.outputTokens === 8).reduce((n, s) => n + s.e2eMs, 0);
  t.ok(json.scenarios.long.duration_ms >= longE2e, 'the long span holds its four requests');
  // The Markdown LLM table's req/s and output tokens/s are over each level's own span too.
  const markdown = readFileSync(join(dir, 'summary.md'), 'utf8');
  for (const name of ['short', 'long'] as const) {
    const level = json.scenarios[name];
    // The last row of the level: the LLM table's, after the scenarios table's.
    const rows = [...markdown.matchAll(new RegExp(`\\| ${name} +\\|([^\\n]*)`, 'g'))];
    t.equal(rows.length, 2, `${name}: a row in the scenarios table and in the LLM table`);
    const cells = rows[rows.length - 1]![1]!.split('|').map((c) => c.trim());
    const perSecond = (level.llm!.output_tokens / level.duration_ms) * 1000;
    t.equal(cells[0], level.requests_per_sec.toFixed(2), `${name}: req/s in the table`);
    t.equal(cells[5], perSecond.toFixed(2), `${name}: output tokens/s in the table`);
  }
});
