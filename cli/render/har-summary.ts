/**
 * The summary of a HAR import (printed on stderr by `barrage har`, `run --har`, `validate --har`):
 * what was kept, what was skipped and why, which secrets and headers were dropped. Secrets are
 * named, never shown.
 */
import type { DroppedHeaderCategory } from '../../dsl/har/har-headers.js';
import type { HarCount, HarSummary } from '../../dsl/har/har-to-endpoints.js';
import { MAX_STEPS } from '../../dsl/har/har-websocket.js';

const CATEGORY: Readonly<Record<DroppedHeaderCategory, string>> = {
  connection: 'hop-by-hop, set by barrage per request',
  pseudo: 'HTTP/2 pseudo-headers: barrage sets method, path and host',
  browser: "the browser's own context",
  'user-agent': 'barrage sends its own; set user_agent to change it',
  trace: 'per-request trace ids: one id repeated on every request would merge unrelated traces',
  secret: 'secrets',
  invalid: 'not valid header names',
};

const FROM: Readonly<Record<NonNullable<HarSummary['page']>['from'], string>> = {
  target: "the target's host",
  document: 'the first document request',
  'first entry': 'no document request: the first entry',
};

/** The summary as lines of text. */
export function renderHarSummary(summary: HarSummary): string {
  const creator = summary.creator === undefined ? '' : ` (${summary.creator})`;
  const lines = [
    `HAR ${summary.file}${creator}: ${plural(summary.entries, 'entry', 'entries')}, ${summary.kept} kept as ${plural(summary.endpoints, 'endpoint', 'endpoints')}${summary.flowSteps === undefined ? ' (weight = times recorded)' : ''}`,
  ];
  const add = (text: string): void => {
    lines.push(`  ${text}`);
  };
  if (summary.page !== undefined) {
    const against =
      summary.target === summary.page.origin ? '' : `; replayed against ${summary.target}`;
    add(`page: ${summary.page.origin} (${FROM[summary.page.from]})${against}`);
  }
  if (summary.otherHosts.length > 0) {
    const page = summary.page === undefined ? '' : new URL(summary.page.origin).hostname;
    const other = new URL(`http://${summary.otherHosts[0]?.label ?? ''}`).hostname;
    add(
      `skipped ${total(summary.otherHosts)} to other hosts, never replayed by accident: ${counts(summary.otherHosts)}; to keep one too: --har-filter 'host:${page}|${other}'`,
    );
  }
  if (summary.filtered.length > 0)
    add(`skipped ${total(summary.filtered)} by the filter: ${counts(summary.filtered)}`);
  if (summary.unsupported.length > 0)
    add(`skipped ${total(summary.unsupported)} not replayable: ${counts(summary.unsupported)}`);
  if (summary.secrets.length > 0) {
    add(
      summary.secretsKept
        ? `secrets KEPT (--keep-secrets): ${counts(summary.secrets)}; the output holds credentials: do not commit or share it`
        : `secrets dropped (--keep-secrets keeps them; better, pass credentials with auth: or \${ENV}): ${counts(summary.secrets)}`,
    );
  }
  const dropped = summary.droppedHeaders.map(
    (d) => `${d.names.join(', ')} (${CATEGORY[d.category]})`,
  );
  if (dropped.length > 0) add(`headers not replayed: ${dropped.join('; ')}`);
  if (summary.acceptEncoding)
    add(
      'Accept-Encoding kept: the server compresses as it does for the browser; barrage counts the compressed bytes on the wire and decodes each body for extractors and checks',
    );
  if (summary.staticKept > 0)
    add(
      `${plural(summary.staticKept, 'static asset', 'static assets')} kept (images, fonts, CSS, JavaScript): --har-filter '!static' drops them`,
    );
  if (summary.bodiesMissing > 0)
    add(
      `${plural(summary.bodiesMissing, 'request body was', 'request bodies were')} not in the recording: sent without a body (export the HAR with content)`,
    );
  if (summary.flowSteps !== undefined)
    add(
      `flow "recording": ${plural(summary.flowSteps, 'step', 'steps')} in recorded order; think times on ${plural(summary.thinking, 'endpoint', 'endpoints')} from the recorded pauses (--think-scale)`,
    );
  const { webSockets } = summary;
  if (webSockets.endpoints > 0)
    add(
      `${plural(webSockets.endpoints, 'WebSocket endpoint', 'WebSocket endpoints')} from recorded messages (sent as recorded, each received one awaited as receive: any)${webSockets.framesDropped > 0 ? `; ${plural(webSockets.framesDropped, 'message', 'messages')} past ${MAX_STEPS} steps a session not replayed` : ''}`,
    );
  if (summary.dynamic.length > 0) {
    const correlated = summary.dynamic.filter((d) => d.correlated);
    const others = summary.dynamic.filter((d) => !d.correlated);
    const list = (values: typeof correlated): string =>
      values.map((d) => `${d.name} (${d.where}, ${d.uses}×)`).join(', ');
    add(
      `dynamic values: ${summary.dynamic.length} found, ${correlated.length} correlated (extracted, sent back as {{name}}): ${list(correlated) || 'none'}${others.length > 0 ? `; not correlated: ${list(others)}` : ''}`,
    );
  }
  if (summary.credentials.length > 0)
    add(`credentials from the environment: set ${summary.credentials.join(', ')} before running`);
  return `${lines.join('\n')}\n`;
}

function counts(list: readonly HarCount[]): string {
  return list.map((c) => `${c.label} (${c.count})`).join(', ');
}

function total(list: readonly HarCount[]): number {
  return list.reduce((sum, c) => sum + c.count, 0);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
