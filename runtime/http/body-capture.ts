/**
 * The first bytes of a body as text, for the HTTP debug log and the sample failures
 * (exchange-record.ts). Rule: the bytes kept must be valid UTF-8 (a character cut at the end
 * aside), else the body is shown as `<N bytes binary>`. Runtime keeps CAPTURED_BODY_BYTES, twice
 * what is shown: the edge redacts the text before it cuts it to SHOWN_BODY_BYTES, so that a
 * secret across the cut (up to a KiB long) is still seen whole, and hidden.
 */
import type { CapturedBody } from '../../model/exchange-record.js';

/** Bytes of each body shown in a record. */
export const SHOWN_BODY_BYTES = 1024;
/** Bytes of each body captured (redaction sees past the cut). */
export const CAPTURED_BODY_BYTES = 2 * SHOWN_BODY_BYTES;

/** A request body as undici was given it (a string, bytes, or nothing). */
export function captureRequestBody(body: unknown): CapturedBody {
  if (body === null || body === undefined) return { body: '', body_bytes: 0 };
  if (typeof body === 'string') {
    const total = Buffer.byteLength(body);
    if (total <= CAPTURED_BODY_BYTES) return { body, body_bytes: total };
    // At most 3 bytes a UTF-16 unit: enough characters to fill the capture, and no more.
    return captureBytes(Buffer.from(body.slice(0, CAPTURED_BODY_BYTES)), total);
  }
  if (body instanceof Uint8Array) return captureBytes(body, body.byteLength);
  return { body: null, body_bytes: 0 };
}

/** A response body from the chunks an exchange kept, `total` bytes long in all. */
export function captureChunks(chunks: readonly Buffer[], total: number): CapturedBody {
  if (chunks.length === 1) return captureBytes(chunks[0]!, total);
  const head: Buffer[] = [];
  let bytes = 0;
  for (let i = 0; i < chunks.length && bytes < CAPTURED_BODY_BYTES; i++) {
    head.push(chunks[i]!);
    bytes += chunks[i]!.byteLength;
  }
  return captureBytes(Buffer.concat(head), total);
}

/** The first CAPTURED_BODY_BYTES of `bytes` (the start of a body `total` bytes long). */
export function captureBytes(bytes: Uint8Array, total: number): CapturedBody {
  const head = bytes.subarray(0, CAPTURED_BODY_BYTES);
  const whole = head.byteLength >= total;
  let text: string;
  try {
    // Streaming: a character cut by the end of what was kept is left out, not an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !whole });
  } catch {
    return { body: `<${total} bytes binary>`, body_bytes: total };
  }
  return whole
    ? { body: text, body_bytes: total }
    : { body: text, body_truncated: true, body_bytes: total };
}

/** `text` cut to at most `maxBytes` of UTF-8 (never inside a character); undefined when it fits. */
export function cutText(text: string, maxBytes: number): string | undefined {
  if (text.length <= maxBytes / 3) return undefined;
  const bytes = Buffer.from(text);
  if (bytes.byteLength <= maxBytes) return undefined;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true });
}
