/**
 * The one way outputs send to a receiver: an HTTP POST of a payload (Node's fetch, apart from the
 * load's own connections) with the protocol's headers and the output's own (its credentials among
 * them; the protocol's win a name both set). Anything but a 2xx is a refusal whose message says the
 * status and the start of the receiver's answer; the output's header values are never quoted in
 * it, should the receiver echo the request.
 */

import type { OutputKind } from '../../model/plan/output-plan.js';
import type { Flush, OutputSink, Payload } from './output-sink.js';

/** Most of a refusal's answer quoted in its message. */
const ANSWER_CHARS = 200;

/** Where an output sends, and with which headers. */
export interface Receiver {
  readonly url: string;
  /** The headers the wire format requires. */
  readonly protocol: Readonly<Record<string, string>>;
  /** The output's own headers (OutputPlan.headers): secrets to any message. */
  readonly own: Readonly<Record<string, string>>;
}

/** Shorter values are not hidden: they would blank out common words, and hold no secret. */
const MIN_SECRET_CHARS = 6;

/** POSTs `body`; rejects with the receiver's refusal or the network's error. */
export async function postPayload(
  receiver: Receiver,
  body: Uint8Array | string,
  signal: AbortSignal,
): Promise<void> {
  try {
    await post(receiver.url, headersOf(receiver), body, signal);
  } catch (error) {
    throw new Error(
      hideSecrets(error instanceof Error ? error.message : String(error), receiver.own),
    );
  }
}

/** The request's headers: the output's own, then the protocol's, names in lower case. */
function headersOf(receiver: Receiver): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': 'barrage' };
  for (const [name, value] of Object.entries(receiver.own)) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(receiver.protocol))
    headers[name.toLowerCase()] = value;
  return headers;
}

/** `text` with the output's header values, and their words after the first (a bare token), hidden. */
function hideSecrets(text: string, own: Readonly<Record<string, string>>): string {
  const secrets = Object.values(own)
    .flatMap((value) => [value, ...value.split(/\s+/).slice(1)])
    .filter((value) => value.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((hidden, secret) => hidden.split(secret).join('[redacted]'), text);
}

async function post(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array | string,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal });
  } catch (error) {
    throw new Error(networkReason(error), { cause: error });
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  const answer = (await startOf(response)).trim().replace(/\s+/g, ' ');
  throw new Error(
    `the receiver answered ${response.status}${answer === '' ? '' : `: ${answer.slice(0, ANSWER_CHARS)}`}`,
  );
}

/** The first ANSWER_CHARS-odd characters of an answer: a receiver's body is read no further. */
async function startOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < ANSWER_CHARS) {
      const chunk = (await reader.read()) as { done: boolean; value?: Uint8Array };
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } catch {
    // The start read so far is the answer.
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

/** fetch's "fetch failed" made useful: the cause's code (ECONNREFUSED…) or message. */
function networkReason(error: unknown): string {
  const cause =
    error instanceof Error
      ? (error.cause as { code?: string; message?: string } | undefined)
      : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * The sink of an output that POSTs each payload (prometheus-rw, otlp, influxdb): only how a flush
 * is encoded differs between them. It holds nothing between sends.
 */
export class PostedSink implements OutputSink {
  constructor(
    readonly kind: OutputKind,
    /** Where it sends, without credentials (for messages). */
    readonly target: string,
    private readonly receiver: Receiver,
    /** The flush as the receiver takes it; undefined when there is nothing to send. */
    readonly encode: (flush: Flush) => Payload | undefined,
  ) {}

  /** POSTs the payload (postPayload). */
  send(payload: Payload, signal: AbortSignal): Promise<void> {
    return postPayload(this.receiver, payload.body, signal);
  }

  /** Nothing held: each send is a request of its own. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
