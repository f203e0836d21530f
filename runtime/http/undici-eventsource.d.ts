/**
 * undici's Server-Sent Events parser (runtime/http/sse-reader.ts reads streams with it), by its own
 * path as the workers import undici's Client: the package has no `exports` map and declares no
 * types for it. It is a Transform stream in object mode; `push` replaces the readable side, so
 * each event is handed over synchronously, inside write().
 */
declare module 'undici/lib/web/eventsource/eventsource-stream.js' {
  import { Transform } from 'node:stream';
  /** One event as the parser dispatches it (only events with data are). */
  interface EventSourceStreamEvent {
    readonly type: string;
    readonly options: { readonly data: string; readonly lastEventId?: string };
  }
  /** The parser of `text/event-stream` bytes (WHATWG HTML, server-sent events, §9.2.6). */
  export class EventSourceStream extends Transform {
    constructor(options: {
      readonly maxEventSize?: number;
      readonly push: (event: EventSourceStreamEvent) => boolean;
    });
  }
}
