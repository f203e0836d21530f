/**
 * How a host operation of a scenario settled (script-ops.ts, script-sockets.ts), as it crosses
 * into the isolate (sandbox.ts writes it as a record: sandbox/isolate/records.ts).
 */
import type { ResponseValues } from '../../sandbox/isolate/records.js';

/** How a host operation settled, as it crosses into the isolate. */
export type Settled =
  /** A value as JSON text ('' for undefined). */
  | { readonly kind: 'value'; readonly json: string }
  /**
   * An http response. The script reads its status at once and the rest only when asked:
   * `text` is the final url (after redirects), then the raw header names and values (`fields` of
   * them), each followed by "\n", then the kept body; `error` is the error kind ('' when none).
   */
  | ({ readonly kind: 'response' } & ResponseValues)
  /** Refused: the call throws this message in the script. */
  | { readonly kind: 'refused'; readonly message: string }
  /**
   * Not a settlement: an event of the operation still under way (a socket of ws.connect: a frame,
   * by its seq, with its text or bytes; or 'open', 'close', 'error', 'timer'), delivered in order.
   */
  | {
      readonly kind: 'event';
      readonly type: string | number;
      readonly payload: string | number | ArrayBuffer;
    };

/** Receives how a host operation settled. */
export type Settle = (settled: Settled) => void;
