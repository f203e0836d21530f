// A TypeScript scenario's http call with the llm option (docs/llm.md), run in process against the
// express app of test/helpers/llm-app.ts: the llm_* metrics as a YAML endpoint's, and the
// response's body is the event that held the usage.
import t from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startLlmApp, type LlmJson } from '../helpers/llm-app.js';

interface Json {
  readonly llm?: LlmJson;
  readonly checks?: { readonly passes: number; readonly fails: number };
}

t.test("a TypeScript scenario's call with llm records the same metrics", async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 2, gapMs: 3 });
  const dir = t.testdir({
    'chat.ts': [
      "import { http, check } from 'barrage';",
      'export default async function () {',
      "  const res = await http.post('/v1/chat/completions', {",
      "    messages: [{ role: 'user', content: 'hi there you' }], max_tokens: 4, stream: true,",
      '    stream_options: { include_usage: true },',
      "  }, { stream: 'sse', llm: { api: 'openai-chat', goodput: { ttft: 10000 } } });",
      "  check(res, { 'body is the usage event': (r) => r.json('$.usage.completion_tokens') === 4 });",
      '}',
    ].join('\n'),
  });
  const result = await runInProcess(
    ['run', '--scenario', 'chat.ts', '--target', url, '-n', '2', '-c', '1', '--json-output'],
    { cwd: dir },
  );
  t.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Json;
  t.equal(
    json.llm?.output_tokens,
    served.reduce((n, s) => n + s.outputTokens, 0),
  );
  t.equal(
    json.llm?.input_tokens,
    served.reduce((n, s) => n + s.promptTokens, 0),
  );
  t.same(json.llm?.goodput, { rate: 1, count: 2, total: 2 });
  t.match(json.checks, { passes: 2, fails: 0 });
});
