/**
 * What the request path keeps of a recorded request, beyond its figures: the first failed
 * requests of each endpoint and error kind (the reports' sample failures, kept by the Recorder)
 * and the lines of the HTTP debug log (HttpDebugTap). The path calls it for failed requests only,
 * or for every one when the log asks for all; a record is built only when one of the two takes
 * it, from the references the request left: its options, its exchange, the kept response body,
 * with the values of the user's cookies hidden (http/hide-cookie-values.ts).
 */
import { firstTokenUs } from './record-llm.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { HttpDebugTap } from '../debug/http-debug-tap.js';
import { captureChunks, captureRequestBody } from '../http/body-capture.js';
import type { CapturedBody, ExchangeRecord, RecordedHeaders } from '../../model/exchange-record.js';
import type { Recorder } from '../metrics/recorder.js';
import { hideCookieValues, sentCookieValues, setCookieValues } from '../http/hide-cookie-values.js';
import type { InFlight } from './in-flight.js';

/** Where a scenario's records come from, and where debug lines go. */
export interface CaptureDeps {
  /** Wall-clock time dispatch began, epoch ms (the records' times count from it). */
  readonly startedAt: number;
  /** The named scenario; undefined in a run of the top-level form. */
  readonly scenario: string | undefined;
  /** The HTTP debug log; undefined when it is off. */
  readonly debug: HttpDebugTap | undefined;
}

/** Keeps sample failures and feeds the debug log. */
export class ExchangeCapture {
  constructor(
    private readonly deps: CaptureDeps,
    private readonly recorder: Recorder,
  ) {}

  /** A request just recorded with `kind` (undefined: it succeeded). */
  capture(flight: InFlight, kind: ErrorKind | undefined, waitingUs: number): void {
    const sample = kind !== undefined && this.recorder.wantsSample(flight.index, kind);
    const debug = this.deps.debug;
    const log = debug !== undefined && debug.admit();
    if (!sample && !log) return;
    const record = withoutCookies(flight, exchangeRecord(flight, kind, waitingUs, this.deps));
    if (sample) this.recorder.keepSample(flight.index, kind, record);
    if (log) debug.send(record);
  }
}

/** The record with the values of the user's cookies, those sent and those set, hidden. */
function withoutCookies(flight: InFlight, record: ExchangeRecord): ExchangeRecord {
  const { cookies, exchange } = flight.vu;
  const raw = exchange.headers ?? [];
  const set = setCookieValues(exchange.setCookies.map((i) => raw[i]?.toString('utf8') ?? ''));
  return hideCookieValues(record, [...cookies.values(), ...sentCookieValues(record), ...set]);
}

/** The record of the exchange the flight just ended: an attempt, or a redirect's hop. */
function exchangeRecord(
  flight: InFlight,
  kind: ErrorKind | undefined,
  waitingUs: number,
  deps: CaptureDeps,
): ExchangeRecord {
  const { vu } = flight;
  const sent = vu.sent;
  const exchange = vu.exchange;
  const error = exchange.error;
  return {
    time: new Date(deps.startedAt + flight.sendUs / 1000).toISOString(),
    ...(deps.scenario === undefined ? {} : { scenario: deps.scenario }),
    endpoint: flight.compiled!.endpoint.name,
    vu: vu.id,
    method: sent.method,
    url: vu.url(),
    request: { headers: sentHeaders(sent.headers), ...captureRequestBody(sent.body) },
    response:
      exchange.status === 0
        ? null
        : {
            status: exchange.status,
            headers: receivedHeaders(exchange.headers ?? []),
            ...responseBody(flight),
          },
    timings: {
      waiting_ms: waitingUs < 0 ? null : ms(waitingUs),
      duration_ms: ms(flight.endUs - flight.sendUs),
      ...firstToken(flight),
    },
    error_kind: kind ?? null,
    ...(error === undefined ? {} : { error: messageOf(error) }),
  };
}

/** An LLM endpoint's time to first token, when one came. */
function firstToken(flight: InFlight): { first_token_ms?: number } {
  if (flight.compiled!.endpoint.llm === undefined) return {};
  const us = firstTokenUs(flight);
  return us < 0 ? {} : { first_token_ms: ms(us) };
}

/** The response body as far as the exchange kept it (null when it kept none: no reader asked). */
function responseBody(flight: InFlight): CapturedBody {
  const exchange = flight.vu.exchange;
  const total = exchange.decodedBytes > 0 ? exchange.decodedBytes : exchange.bytesIn;
  if (flight.compiled!.keepBody === 0 || exchange.sse !== undefined)
    return { body: null, body_bytes: total };
  return captureChunks(exchange.kept, total);
}

/** What an exchange's error says (undici's errors are Errors; anything else is named only). */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'an error that is not an Error';
}

/** µs → ms, to the µs. */
function ms(us: number): number {
  return Math.round(us) / 1000;
}

/** Request headers (name, value, name, value…) as a mapping; built by entries, so any name is a key. */
function sentHeaders(list: readonly string[]): RecordedHeaders {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < list.length; i += 2) add(headers, list[i]!, list[i + 1]!);
  return Object.fromEntries(headers);
}

/** Raw response headers as a mapping. */
function receivedHeaders(raw: readonly Buffer[]): RecordedHeaders {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2)
    add(headers, raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1'));
  return Object.fromEntries(headers);
}

function add(headers: Map<string, string>, name: string, value: string): void {
  const known = headers.get(name);
  headers.set(name, known === undefined ? value : `${known}, ${value}`);
}
