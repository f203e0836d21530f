/**
 * Where a streamed response's events (stream: sse) or chunks (stream: chunks) go as they arrive:
 * the request path times each one at once, so nothing keeps a list of times.
 */

/** A stream's events or chunks, as they arrive. */
export interface StreamListener {
  /** One came at `atUs`; `previousUs` is when the stream's one before came, -1 for its first. */
  streamPiece(atUs: number, previousUs: number): void;
}
