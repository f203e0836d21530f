/**
 * A Server-Sent Events stream read as it comes (docs/configuration.md, Streamed responses). Its
 * bytes go through undici's own EventSource parser (the WHATWG algorithm: fields, comments, CR,
 * LF and CRLF line ends, a leading BOM), so nothing is buffered beyond the event being read. Each
 * event's arrival goes to the listener at once (the recorder keeps no list of times), and only the
 * last event's data is kept, for extractors and checks. An event larger than MAX_KEPT_BODY stops
 * the parser: a target chooses what it sends, and one endless line must not grow memory.
 *
 * One reader per streamed response: the parser keeps state between chunks, and a stream lasts
 * long enough that its few objects do not matter (a buffered response allocates none).
 */
import { EventSourceStream } from 'undici/lib/web/eventsource/eventsource-stream.js';
import { MAX_KEPT_BODY } from './response-body.js';
import type { LlmReader } from './llm-reader.js';
import type { StreamListener } from './stream-listener.js';

/** One response's event stream. */
export class SseReader {
  /** Events read so far. */
  events = 0;
  /** When the last event came (µs, the exchange's clock), -1 before the first. */
  lastEventUs = -1;
  /** The last event's data (its data lines joined by "\n"), undefined before the first. */
  lastData: string | undefined;
  #atUs = 0;
  readonly #parser: EventSourceStream;

  /**
   * `fail` is called (once, later) when the stream cannot be read: an event past the cap; `llm`
   * reads an LLM endpoint's events for their tokens.
   */
  constructor(
    private readonly listener: StreamListener,
    fail: () => void,
    llm: LlmReader | undefined,
  ) {
    this.#parser = new EventSourceStream({
      maxEventSize: MAX_KEPT_BODY,
      push: (event) => {
        this.listener.streamPiece(this.#atUs, this.lastEventUs);
        this.lastEventUs = this.#atUs;
        this.events++;
        this.lastData = event.options.data;
        llm?.event(event.type, event.options.data, this.#atUs);
        return true;
      },
    });
    this.#parser.once('error', fail);
  }

  /** Parses a chunk that came at `atUs`; its complete events reach the listener before this returns. */
  read(chunk: Buffer, atUs: number): void {
    this.#atUs = atUs;
    if (!this.#parser.destroyed) this.#parser.write(chunk);
  }

  /** The response is over: the parser is dropped (an unfinished event is not one). */
  close(): void {
    this.#parser.removeAllListeners('error');
    this.#parser.on('error', ignore);
    this.#parser.destroy();
  }
}

function ignore(): void {}
