/**
 * The HTML report's sections a run has only when it used what they describe (html-report.ts puts
 * them in the page, in this order): the open model, WebSocket sessions, streamed responses, LLM
 * endpoints, checks and token fetches. Each returns undefined when the run has nothing for it.
 */
import type { LatencySummary, RunResult } from '../../runtime/metrics/run-result.js';
import { section, table, type Cell } from './html-markup.js';
import { formatCount, formatMs, formatShare } from './report-figures.js';
import { BY_SCENARIO_HEAD, formatPerSecond, llmByScenario, llmSection } from './llm-figures.js';

/** The head of a latency table: a label column, then the percentiles people quote. */
const LATENCY_HEAD = ['', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'max ms'];

function latencyRow(label: string, l: LatencySummary | undefined): Cell[] {
  return [
    label,
    formatMs(l?.p50),
    formatMs(l?.p90),
    formatMs(l?.p95),
    formatMs(l?.p99),
    formatMs(l?.max),
  ];
}

/** The open model's latency from the actual and the intended send, late and dropped permits. */
export function openModel(r: RunResult): string | undefined {
  if (r.intended_latency_ms === undefined && r.late === 0 && r.dropped === 0) return undefined;
  const rows = [
    latencyRow('from the actual send (service time)', r.latency_ms),
    latencyRow('from the intended send (coordinated omission corrected)', r.intended_latency_ms),
  ];
  const counts = `<p>Late permits: ${formatCount(r.late)} · Dropped permits: ${formatCount(r.dropped)}</p>`;
  return section(
    'open-model',
    'Open model',
    `${table(LATENCY_HEAD, rows, { numeric: [1, 2, 3, 4, 5] })}\n${counts}`,
  );
}

/** WebSocket sessions and messages counted, and their timings. */
export function websocket(r: RunResult): string | undefined {
  const ws = r.websocket;
  if (ws === undefined) return undefined;
  const counts = table(
    ['sessions', 'failed', 'messages sent', 'messages received'],
    [
      [
        formatCount(ws.sessions),
        formatCount(ws.failures),
        formatCount(ws.msgs_sent),
        formatCount(ws.msgs_received),
      ],
    ],
    { numeric: [0, 1, 2, 3] },
  );
  const timings = table(
    LATENCY_HEAD,
    [
      latencyRow('connecting', ws.connecting_ms),
      latencyRow('message round trip', ws.message_rtt_ms),
      latencyRow('session duration', ws.session_duration_ms),
    ],
    { numeric: [1, 2, 3, 4, 5] },
  );
  return section('websocket', 'WebSocket', `${counts}\n<h3>Timings</h3>\n${timings}`);
}

/** Streamed responses: events and chunks counted, time to the first and the gaps between them. */
export function streams(r: RunResult): string | undefined {
  const { sse, stream } = r;
  if (sse === undefined && stream === undefined) return undefined;
  const counts: Cell[][] = [];
  const timings: Cell[][] = [];
  if (sse !== undefined) {
    counts.push(['Server-Sent Events', formatCount(sse.events)]);
    timings.push(latencyRow('time to first event', sse.time_to_first_event_ms));
    timings.push(latencyRow('gap between events', sse.event_gap_ms));
  }
  if (stream !== undefined) {
    counts.push(['chunks', formatCount(stream.chunks)]);
    timings.push(latencyRow('time to first chunk', stream.time_to_first_chunk_ms));
    timings.push(latencyRow('gap between chunks', stream.chunk_gap_ms));
  }
  return section(
    'streams',
    'Streamed responses',
    `${table(['', 'received'], counts, { numeric: [1] })}\n<h3>Timings</h3>\n${table(LATENCY_HEAD, timings, { numeric: [1, 2, 3, 4, 5] })}`,
  );
}

/** LLM endpoints: their timings, tokens and output tokens per second, goodput. */
export function llm(r: RunResult): string | undefined {
  const figures = llmSection(r);
  if (figures === undefined) return undefined;
  const good = figures.goodput;
  const counts = table(
    [
      'input tokens',
      'output tokens',
      'output tokens/s',
      'per request p50',
      'goodput',
      'good requests/s',
    ],
    [
      [
        formatCount(figures.inputTokens),
        formatCount(figures.outputTokens),
        formatPerSecond(figures.outputPerSecond),
        formatPerSecond(figures.perRequest?.p50),
        good === undefined ? 'n/a' : formatShare(good.count, good.total),
        good === undefined ? 'n/a' : formatPerSecond(good.perSecond),
      ],
    ],
    { numeric: [0, 1, 2, 3, 4, 5] },
  );
  const timings = table(
    LATENCY_HEAD,
    figures.rows.map(([label, l]) => latencyRow(label, l)),
    { numeric: [1, 2, 3, 4, 5] },
  );
  const rows = llmByScenario(r);
  const byScenario =
    rows === undefined
      ? ''
      : `\n<h3>By scenario</h3>\n${table(BY_SCENARIO_HEAD, rows, { numeric: [1, 2, 3, 4, 5, 6, 7] })}`;
  return section('llm', 'LLM endpoints', `${counts}\n<h3>Timings</h3>\n${timings}${byScenario}`);
}

/** Checks by name: passes, fails and the passing share. */
export function checks(r: RunResult): string | undefined {
  const c = r.checks;
  if (c === undefined) return undefined;
  const rows: Cell[][] = Object.entries(c.by_name).map(([name, n]) => [
    name,
    formatCount(n.passes),
    formatCount(n.fails),
    formatShare(n.passes, n.passes + n.fails),
  ]);
  rows.push([
    'all checks',
    formatCount(c.passes),
    formatCount(c.fails),
    c.rate === undefined ? 'n/a' : formatShare(c.passes, c.passes + c.fails),
  ]);
  const body = table(['check', 'passes', 'fails', 'pass rate'], rows, {
    numeric: [1, 2, 3],
    id: 'checks-table',
  });
  return section('checks', 'Checks', body, true);
}

/** Token fetches of the auth provider, their failures and latency. */
export function auth(r: RunResult): string | undefined {
  const a = r.auth;
  if (a === undefined) return undefined;
  const body = table(
    ['token fetches', 'failed', 'p50 ms', 'p95 ms', 'max ms'],
    [
      [
        formatCount(a.token_fetches),
        formatCount(a.failures),
        formatMs(a.latency_ms?.p50),
        formatMs(a.latency_ms?.p95),
        formatMs(a.latency_ms?.max),
      ],
    ],
    { numeric: [0, 1, 2, 3, 4] },
  );
  return section('auth', 'Authentication', body);
}
