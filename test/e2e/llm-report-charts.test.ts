// The HTML report of an LLM run (docs/llm.md, docs/reports.md): the JSON result's series holds
// each second's LLM output tokens and completed LLM requests, which sum to what the express app
// of test/helpers/llm-app.ts counted itself; the page holds the output tokens/s chart and the
// TTFT and ITL percentile curves with their data; and the raw result keeps the per-second figures
// through `barrage merge`. Headless Chromium draws the charts with those points and no error.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { chromiumSkip, openReport } from '../helpers/chromium.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { startLlmApp } from '../helpers/llm-app.js';

interface Point {
  readonly second: number;
  readonly requests: number;
  readonly llm_output_tokens?: number;
  readonly llm_requests?: number;
}

interface Curve {
  readonly percentile: number;
  readonly ms: number;
}

/** The JSON a `<script type="application/json" id=ID>` block of the page holds. */
function block(page: string, id: string): unknown {
  const found = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(
    page,
  );
  if (found === null) throw new Error(`no #${id} block`);
  return JSON.parse(found[1]!) as unknown;
}

const total = (
  series: readonly Point[],
  key: 'llm_output_tokens' | 'llm_requests' | 'requests',
): number => series.reduce((n, p) => n + (p[key] ?? 0), 0);

// The page's figures as the test reads them (the project compiles without the DOM library).
interface PageFigure {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<unknown>;
}

const skip = chromiumSkip(process.env);

t.test('the HTML report holds tokens/s over time and the TTFT and ITL curves', async (t) => {
  const { url, served } = await startLlmApp(t, { prefillMs: 5, gapMs: 4 });
  const dir = t.testdir({});
  writeFileSync(
    join(dir, 'run.yaml'),
    [
      `target: ${url}`,
      'requests: 12',
      'concurrency: 3',
      'report: { html: report.html }',
      'endpoints:',
      '  - name: chat',
      '    method: POST',
      '    url: /v1/chat/completions',
      '    stream: sse',
      '    llm: openai-chat',
      '    body: { messages: [{ role: user, content: "count to five" }], max_tokens: 5, stream: true, stream_options: { include_usage: true } }',
    ].join('\n'),
  );
  const result = await runInProcess(['run', 'run.yaml', '--raw', 'raw.json'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const chats = served.filter((s) => s.path === '/v1/chat/completions');
  t.equal(chats.length, 12, 'the server saw the plan’s 12 requests');
  const serverTokens = chats.reduce((n, s) => n + s.outputTokens, 0);
  t.equal(serverTokens, 60);

  const page = readFileSync(join(dir, 'report.html'), 'utf8');
  const data = block(page, 'barrage-data') as { series: readonly Point[] };
  t.equal(total(data.series, 'llm_output_tokens'), serverTokens, 'tokens/s sums to the server’s');
  t.equal(total(data.series, 'llm_requests'), chats.length);
  t.equal(total(data.series, 'llm_requests'), total(data.series, 'requests'));
  t.match(page, /<figure data-chart="llm-tokens">/);

  const extra = block(page, 'barrage-series') as {
    distributions?: Readonly<Record<string, readonly Curve[]>>;
  };
  for (const metric of ['llm_time_to_first_token', 'llm_inter_token_latency']) {
    t.match(page, new RegExp(`<figure data-chart="distribution-${metric}">`));
    const curve = extra.distributions?.[metric] ?? [];
    t.ok(curve.length > 0, `${metric}'s curve has points`);
    t.ok(
      curve.every((p, i) => i === 0 || p.ms >= curve[i - 1]!.ms),
      `${metric}'s curve rises`,
    );
  }
  // The server's own first-token times bound the curve from below: barrage's TTFT adds the wire.
  const firstTokens = chats.map((s) => s.firstTokenMs).sort((a, b) => a - b);
  const ttft = extra.distributions!.llm_time_to_first_token!;
  t.ok(
    ttft[ttft.length - 1]!.ms >= firstTokens[0]!,
    'the slowest TTFT is no less than the server’s quickest',
  );

  const merged = await runInProcess(['merge', 'raw.json', '--json-output'], { cwd: dir });
  t.equal(merged.code, 0, merged.stderr);
  const again = JSON.parse(merged.stdout) as { series: readonly Point[] };
  t.same(again.series, data.series, 'the raw result keeps the per-second figures');

  t.test('drawn in headless Chromium', { skip }, async (t) => {
    const { page, errors, close } = await openReport(join(dir, 'report.html'));
    t.teardown(close);
    t.same(errors, [], 'no console errors');
    const drawn = await page.$$eval('figure[data-chart]', (figures: unknown[]) =>
      (figures as PageFigure[]).map((f) => [
        f.getAttribute('data-chart') ?? '',
        Number(f.getAttribute('data-points')),
        f.querySelectorAll('canvas').length,
      ]),
    );
    const curve = (metric: string): number =>
      extra.distributions![metric]!.filter((p) => p.percentile < 100).length;
    t.same(
      drawn.filter(([name]) => /^(llm-|distribution-llm)/.test(String(name))),
      [
        ['llm-tokens', data.series.length, 1],
        ['distribution-llm_time_to_first_token', curve('llm_time_to_first_token'), 1],
        ['distribution-llm_inter_token_latency', curve('llm_inter_token_latency'), 1],
      ],
    );
  });
});
