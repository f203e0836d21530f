/**
 * The HTML report's sample failures (docs/reports.md, Sample failures): one collapsed <details>
 * per endpoint and error kind, each with its recorded requests (at most three), their response,
 * timings and error, headers as tables and the bodies' first KiB as preformatted text. The records
 * come redacted (cli/render/redact-exchange.ts); every text is escaped here.
 */
import type { CapturedBody, ExchangeRecord, RecordedHeaders } from '../../model/exchange-record.js';
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { formatCount } from './report-figures.js';
import { escapeHtml, section, table } from './html-markup.js';

/** The section; undefined when no request failed. */
export function sampleFailuresSection(r: RunResult): string | undefined {
  const records = r.sample_failures;
  if (records === undefined || records.length === 0) return undefined;
  const groups = new Map<string, ExchangeRecord[]>();
  for (const record of records) {
    const key = `${record.endpoint}\n${record.error_kind ?? ''}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [record]);
    else group.push(record);
  }
  const body = [...groups.values()].map((group) => {
    const { endpoint, error_kind: kind } = group[0]!;
    const summary = `${endpoint}: ${kind ?? 'failed'} (${group.length === 1 ? 'first request' : `first ${group.length} requests`})`;
    return `<details class="sample">\n<summary>${escapeHtml(summary)}</summary>\n${group.map(exchange).join('\n')}\n</details>`;
  });
  const note = `<p>The first failed requests of each endpoint and error kind (${formatCount(records.length)} kept), secrets redacted, bodies cut to their first KiB.</p>`;
  return section('sample-failures', 'Sample failures', [note, ...body].join('\n'), true);
}

function exchange(record: ExchangeRecord): string {
  const response = record.response;
  const timings = record.timings;
  const facts = [
    record.time,
    ...(record.scenario === undefined ? [] : [`scenario ${record.scenario}`]),
    ...(record.vu === undefined ? [] : [`vu ${record.vu}`]),
    response === null ? 'no response' : `status ${response.status}`,
    `${timings.duration_ms} ms`,
    ...(timings.waiting_ms === null ? [] : [`waiting ${timings.waiting_ms} ms`]),
  ];
  const parts = [
    `<h3>${escapeHtml(`${record.method} ${record.url}`)}</h3>`,
    `<p>${escapeHtml(facts.join(' · '))}</p>`,
    ...(record.error === undefined ? [] : [`<p>${escapeHtml(`error: ${record.error}`)}</p>`]),
    headers('Request headers', record.request.headers),
    body('Request body', record.request),
    ...(response === null
      ? []
      : [headers('Response headers', response.headers), body('Response body', response)]),
  ];
  return `<div class="exchange">\n${parts.filter((p) => p !== '').join('\n')}\n</div>`;
}

function headers(title: string, of: RecordedHeaders): string {
  const rows = Object.entries(of);
  if (rows.length === 0) return '';
  return `<h4>${escapeHtml(title)}</h4>\n${table(['name', 'value'], rows)}`;
}

function body(title: string, of: CapturedBody): string {
  if (of.body_bytes === 0) return '';
  const size = `${formatCount(of.body_bytes)} bytes${of.body_truncated === true ? ', cut' : ''}`;
  const text = of.body ?? '(not kept)';
  return `<h4>${escapeHtml(`${title} (${size})`)}</h4>\n<pre>${escapeHtml(text)}</pre>`;
}
