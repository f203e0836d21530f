/**
 * Recorded entries + filter criteria → endpoints, and the summary of what was kept and why the
 * rest was not. Decisions, in order, for each entry (the first that applies wins):
 *
 * 1. Malformed (read-har.ts) or not replayable (har-entry-facts.ts: not http(s), a WebSocket
 *    without recorded frames, CONNECT, from cache, no response): skipped and counted by reason.
 * 2. No host criterion among the filters: only the page's host is kept; others are "other hosts",
 *    so a replay never loads a CDN or an analytics server by accident. The page's host is the
 *    target's host when the recording has requests to it, else the host of the first document
 *    request, else the first replayable entry's.
 * 3. Each criterion in order; the first that fails is the reason the entry was skipped.
 *
 * Kept entries of the page's origin get urls relative to the target, so `--target` (or the
 * configuration's target) replays a recording against another server; other origins stay
 * absolute. Identical requests (method, url, headers, body after stripping) are one endpoint whose
 * weight is how many times it was recorded; with asFlow the kept entries also form one flow, in
 * recorded order. Names are "METHOD /path" ("METHOD host/path" off the page's origin), made unique
 * with " #2", " #3"… in recorded order. A WebSocket with recorded frames is a ws endpoint
 * (har-websocket.ts) named "WS /path", its url absolute (a ws endpoint's url is relative only to a
 * ws target): the target's origin, or its own off the page's, on ws:// or wss://.
 */
import { criterionHolds, type HarCriterion } from '../grammar/har-filter.js';
import { correlate, NO_CORRELATION, type Correlation, type DynamicValue } from './har-correlate.js';
import { entryFacts, type Replayable } from './har-entry-facts.js';
import { DROP_SECRETS, secretValuesOf, type FieldRules } from './har-fields.js';
import type { DroppedHeaderCategory } from './har-headers.js';
import {
  toHarRequest,
  type HarRequest,
  type RequestContext,
  type RequestNotes,
} from './har-request.js';
import type { HarExtractor } from './har-response-values.js';
import type { HarEntry } from './har-schema.js';
import { recordedPauses, thinkOf } from './har-think.js';
import { toHarWebSocket, type HarWebSocket } from './har-websocket.js';
import type { HarFile } from './read-har.js';

/** How to convert. */
export interface HarOptions {
  readonly criteria: readonly HarCriterion[];
  /** The run's target (or `--target`): picks the page's host and is what endpoints replay against. */
  readonly target: string | undefined;
  readonly keepSecrets: boolean;
  readonly asFlow: boolean;
  /** Correlate dynamic values (a flow only: an extractor must run before its value is used). */
  readonly correlate: boolean;
  /** Multiplies the recorded pauses of a flow's steps (0: none). */
  readonly thinkScale: number;
  /** Endpoint names the configuration the endpoints join already uses. */
  readonly takenNames: readonly string[];
}

/** One endpoint built from identical recorded requests. */
export interface HarEndpoint extends HarRequest {
  readonly name: string;
  /** Times the request was recorded: its weight. */
  readonly count: number;
  /** Index in log.entries of its first recording. */
  readonly entry: number;
  /** Variables read from its response for later requests (correlation). */
  readonly extract: Readonly<Record<string, HarExtractor>>;
  /** Its recorded pause (flows only), as a think time. */
  readonly think: string | undefined;
  /** A ws endpoint's session, from the recorded frames. */
  readonly webSocket: HarWebSocket | undefined;
}

/** A label ("cdn.example.com", "!static", "header Cookie") and how many entries it concerns. */
export interface HarCount {
  readonly label: string;
  readonly count: number;
}

/** What was kept and skipped, and why; rendered by cli/render/har-summary.ts. */
export interface HarSummary {
  readonly file: string;
  /** The recording tool, e.g. "Firefox 128.0". */
  readonly creator: string | undefined;
  readonly entries: number;
  readonly kept: number;
  readonly endpoints: number;
  /** The recorded page's origin and how it was chosen; undefined when nothing is replayable. */
  readonly page:
    { readonly origin: string; readonly from: 'target' | 'document' | 'first entry' } | undefined;
  /** What relative urls are replayed against. */
  readonly target: string;
  /** Skipped by the page-host rule (no host criterion given), by host. */
  readonly otherHosts: readonly HarCount[];
  /** Skipped by a criterion, by the criterion's text. */
  readonly filtered: readonly HarCount[];
  /** Not replayable, by reason. */
  readonly unsupported: readonly HarCount[];
  /** Secrets found in kept entries: dropped, or kept with keepSecrets. */
  readonly secrets: readonly HarCount[];
  readonly secretsKept: boolean;
  /** Header names not replayed, by category (secrets excluded: they are in `secrets`). */
  readonly droppedHeaders: readonly { category: DroppedHeaderCategory; names: readonly string[] }[];
  /** Some kept request carries Accept-Encoding (responses arrive compressed; bytes counted are the wire's). */
  readonly acceptEncoding: boolean;
  /** Kept entries that are static assets (a hint to try !static). */
  readonly staticKept: number;
  /** Kept entries whose body the recording left out. */
  readonly bodiesMissing: number;
  /** Steps of the recorded flow, with asFlow. */
  readonly flowSteps: number | undefined;
  /** Values a response gave and a later request sent back; correlated ones are extracted. */
  readonly dynamic: readonly DynamicValue[];
  /** Environment variables the user must set (passwords: `{{$env NAME}}`). */
  readonly credentials: readonly string[];
  /** Endpoints with a think time from the recording. */
  readonly thinking: number;
  /** ws endpoints made from recorded WebSockets, and the frames past their step limit. */
  readonly webSockets: { readonly endpoints: number; readonly framesDropped: number };
}

/** Endpoints, the flow's steps (asFlow) and the summary. */
export interface HarEndpoints {
  /** What relative urls resolve against: the target, else the recorded page's origin. */
  readonly target: string;
  readonly endpoints: readonly HarEndpoint[];
  /** Endpoint names in recorded order, one per kept entry (asFlow only). */
  readonly flowSteps: readonly string[] | undefined;
  readonly summary: HarSummary;
}

interface Candidate extends Replayable {
  readonly index: number;
  readonly entry: HarEntry;
}

/** Converts a recording. */
export function harToEndpoints(har: HarFile, options: HarOptions): HarEndpoints {
  const { candidates, unsupported } = candidatesOf(har);
  const page = choosePage(candidates, options.target);
  const target = options.target ?? page?.origin ?? '';
  const { kept, otherHosts, filtered } = keptOf(candidates, options, page?.host);
  const correlation =
    options.correlate && options.asFlow
      ? correlate(kept.map((c) => ({ index: c.index, entry: c.entry, url: c.url })))
      : NO_CORRELATION;
  const grouped = group(kept, correlation, {
    pageOrigin: page?.origin ?? '',
    pageHost: page?.host ?? '',
    targetOrigin: originOf(target) ?? page?.origin ?? '',
    keepSecrets: options.keepSecrets,
    credentialsFromEnv: options.correlate && options.asFlow,
    thinkScale: options.thinkScale,
  });
  const names = nameEndpoints(grouped.groups, options.takenNames);
  const pauses = options.asFlow ? recordedPauses(kept.map((c) => c.entry)) : [];
  const endpoints = grouped.groups.map((g, i) => ({
    ...g.request,
    name: names[i] ?? '',
    count: g.count,
    entry: g.entry,
    extract: Object.fromEntries(g.extract),
    webSocket: g.webSocket,
    think: thinkOf(
      grouped.order.flatMap((at, step) => (at === i ? (pauses[step] ?? []) : [])),
      options.thinkScale,
    ),
  }));
  const flowSteps = options.asFlow ? grouped.order.map((i) => names[i] ?? '') : undefined;
  return {
    target,
    endpoints,
    flowSteps,
    summary: {
      file: har.file,
      creator: creatorOf(har),
      entries: har.entries.length,
      kept: kept.length,
      endpoints: endpoints.length,
      page: page === undefined ? undefined : { origin: page.origin, from: page.from },
      target,
      otherHosts: otherHosts.list(),
      filtered: filtered.list(),
      unsupported: unsupported.list(),
      secrets: grouped.secrets.list(),
      secretsKept: options.keepSecrets,
      droppedHeaders: grouped.droppedHeaders,
      acceptEncoding: grouped.acceptEncoding,
      staticKept: kept.filter((c) => c.facts.isStatic).length,
      bodiesMissing: grouped.bodiesMissing,
      flowSteps: flowSteps?.length,
      dynamic: correlation.values,
      credentials: [...new Set(endpoints.flatMap((e) => envNames(JSON.stringify(e))))],
      thinking: endpoints.filter((e) => e.think !== undefined).length,
      webSockets: {
        endpoints: endpoints.filter((e) => e.webSocket !== undefined).length,
        framesDropped: endpoints.reduce((n, e) => n + (e.webSocket?.dropped ?? 0), 0),
      },
    },
  };
}

/** The entries that can be replayed, and why the others cannot, counted. */
function candidatesOf(har: HarFile): { candidates: Candidate[]; unsupported: Counter } {
  const unsupported = new Counter();
  const candidates: Candidate[] = [];
  const malformed = new Map(har.malformed.map((m) => [m.index, m.reason]));
  har.entries.forEach((entry, index) => {
    const facts = entry === undefined ? undefined : entryFacts(entry);
    if (entry === undefined || facts === undefined)
      unsupported.add(malformed.get(index) ?? 'malformed entry');
    else if ('reason' in facts) unsupported.add(facts.reason);
    else candidates.push({ ...facts, index, entry });
  });
  return { candidates, unsupported };
}

/**
 * The candidates the filter keeps: without a host criterion only the page's host, and each
 * criterion must hold; the others counted by host and by the criterion that failed.
 */
function keptOf(
  candidates: readonly Candidate[],
  options: HarOptions,
  pageHost: string | undefined,
): { kept: Candidate[]; otherHosts: Counter; filtered: Counter } {
  const hostRule = !options.criteria.some((c) => c.key === 'host');
  const otherHosts = new Counter();
  const filtered = new Counter();
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    if (hostRule && candidate.facts.host !== pageHost) {
      otherHosts.add(candidate.facts.host);
      continue;
    }
    const failed = options.criteria.find((c) => !criterionHolds(c, candidate.facts));
    if (failed === undefined) kept.push(candidate);
    else filtered.add(failed.text);
  }
  return { kept, otherHosts, filtered };
}

/** "Firefox 128.0": the recording tool, when the file names it. */
function creatorOf(har: HarFile): string | undefined {
  if (har.creator === undefined) return undefined;
  const { name, version } = har.creator;
  return version === undefined ? name : `${name} ${version}`;
}

/** The recorded page: the target's host if recorded, else the first document, else the first entry. */
function choosePage(
  candidates: readonly Candidate[],
  target: string | undefined,
): { host: string; origin: string; from: 'target' | 'document' | 'first entry' } | undefined {
  const targetHost = hostOf(target);
  const onTarget = candidates.find((c) => c.facts.host === targetHost);
  if (onTarget !== undefined)
    return { host: onTarget.facts.host, origin: onTarget.url.origin, from: 'target' };
  const document = candidates.find((c) => c.isDocument);
  if (document !== undefined)
    return { host: document.facts.host, origin: document.url.origin, from: 'document' };
  const first = candidates[0];
  return first === undefined
    ? undefined
    : { host: first.facts.host, origin: first.url.origin, from: 'first entry' };
}

function hostOf(url: string | undefined): string | undefined {
  return parse(url)?.host.toLowerCase();
}

function originOf(url: string | undefined): string | undefined {
  return parse(url)?.origin;
}

function parse(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

interface Group {
  readonly request: HarRequest;
  readonly entry: number;
  readonly extract: Map<string, HarExtractor>;
  count: number;
  /** The path part of the name: the path, or host + path off the page's origin. */
  readonly where: string;
  readonly webSocket: HarWebSocket | undefined;
}

/** How to convert: the request context without the rules, which are per entry. */
interface GroupContext extends Omit<RequestContext, 'rules'> {
  readonly keepSecrets: boolean;
  readonly credentialsFromEnv: boolean;
  /** Multiplies the pauses between a WebSocket's recorded frames. */
  readonly thinkScale: number;
}

/** Converts kept entries and groups identical requests, keeping first-seen order. */
function group(kept: readonly Candidate[], correlation: Correlation, context: GroupContext) {
  const groups: Group[] = [];
  const byKey = new Map<string, number>();
  const order: number[] = [];
  const secrets = new Counter();
  const dropped = new Map<DroppedHeaderCategory, Map<string, string>>();
  let acceptEncoding = false;
  let bodiesMissing = 0;
  const base: FieldRules = {
    ...DROP_SECRETS,
    keepSecrets: context.keepSecrets,
    credentialsFromEnv: context.credentialsFromEnv,
    secretValues: secretValuesOf(kept.map((c) => c.entry)),
  };
  for (const candidate of kept) {
    const uses = correlation.uses.get(candidate.index) ?? base.uses;
    const converted = toHarRequest(candidate.entry, candidate.url, {
      ...context,
      rules: { ...base, uses },
    });
    const { notes } = converted;
    const webSocket = candidate.isWebSocket
      ? toHarWebSocket(candidate.entry, context.thinkScale)
      : undefined;
    const request =
      webSocket === undefined ? converted.request : wsRequest(converted.request, context);
    noteDropped(notes, dropped);
    const seen = new Set(notes.secrets.map((secret) => secret.toLowerCase()));
    for (const secret of notes.secrets) if (seen.delete(secret.toLowerCase())) secrets.add(secret);
    acceptEncoding ||= notes.acceptEncoding;
    if (notes.bodyMissing) bodiesMissing++;
    const key = JSON.stringify([
      request.method,
      request.url,
      Object.entries(request.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      request.body ?? null,
      webSocket ?? null,
    ]);
    let at = byKey.get(key);
    const existing = at === undefined ? undefined : groups[at];
    if (existing === undefined) {
      at = groups.length;
      byKey.set(key, at);
      const offPage = candidate.url.origin !== context.pageOrigin;
      const where = `${offPage ? candidate.url.host : ''}${notes.namePath}`;
      groups.push({
        request,
        entry: candidate.index,
        count: 1,
        where,
        extract: new Map(),
        webSocket,
      });
    } else existing.count++;
    const group = groups[at ?? 0];
    for (const [name, extractor] of correlation.extracts.get(candidate.index) ?? [])
      group?.extract.set(name, extractor);
    order.push(at ?? 0);
  }
  const droppedHeaders = [...dropped].map(([category, names]) => ({
    category,
    names: [...names.values()],
  }));
  return { groups, order, secrets, droppedHeaders, acceptEncoding, bodiesMissing };
}

/** A handshake's request on ws:// or wss://, absolute: a relative url goes on the target's origin. */
function wsRequest(request: HarRequest, context: GroupContext): HarRequest {
  const url = request.url.startsWith('/') ? `${context.targetOrigin}${request.url}` : request.url;
  return { ...request, method: 'WS', url: url.replace(/^http(s?):/i, 'ws$1:') };
}

/** Remembers dropped header names by category (secrets are counted apart), first casing kept. */
function noteDropped(
  notes: RequestNotes,
  dropped: Map<DroppedHeaderCategory, Map<string, string>>,
): void {
  for (const { category, name } of notes.droppedHeaders) {
    if (category === 'secret') continue;
    const names = dropped.get(category) ?? new Map<string, string>();
    if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
    dropped.set(category, names);
  }
}

/** The NAMEs of the {{$env NAME}} placeholders in a text. */
function envNames(text: string): string[] {
  return [...text.matchAll(/\{\{\$env ([A-Za-z_][A-Za-z0-9_]*)\}\}/g)].map((m) => m[1] ?? '');
}

/** Longest path part of a name before it is cut with "…". */
const MAX_NAME_PATH = 60;

/** "METHOD where", cut to a readable length, unique against taken names and each other. */
function nameEndpoints(groups: readonly Group[], takenNames: readonly string[]): string[] {
  const taken = new Set(takenNames);
  return groups.map((g) => {
    const where =
      g.where.length > MAX_NAME_PATH ? `${g.where.slice(0, MAX_NAME_PATH - 1)}…` : g.where;
    const base = `${g.request.method} ${where}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} #${n}`;
    taken.add(name);
    return name;
  });
}

/** Counts labels (compared without case, shown as first seen), by count then first seen. */
class Counter {
  readonly #counts = new Map<string, HarCount>();

  add(label: string): void {
    const key = label.toLowerCase();
    const before = this.#counts.get(key);
    this.#counts.set(key, { label: before?.label ?? label, count: (before?.count ?? 0) + 1 });
  }

  list(): HarCount[] {
    return [...this.#counts.values()].sort((a, b) => b.count - a.count);
  }
}
