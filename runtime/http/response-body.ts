/**
 * What a response body may cost in memory, and how a compressed one is decoded (RFC 9110 §8.4):
 * gzip, deflate, br and zstd with node:zlib, codings undone in reverse order of listing, the
 * output bounded by the cap so that a decompression bomb stops there. A target writes these bytes:
 * whatever it sends ends as a body or as a failure kind, never as a throw.
 */
import {
  brotliDecompressSync,
  gunzipSync,
  inflateRawSync,
  inflateSync,
  zstdDecompressSync,
} from 'node:zlib';

/** Largest response body kept in memory for extractors and scripts, decoded. */
export const MAX_KEPT_BODY = 1024 * 1024;

/** Why a compressed body gave no body. */
export type DecodeFailure = 'decode_error' | 'body_too_large';

const BOUNDED = { maxOutputLength: MAX_KEPT_BODY } as const;

const DECODERS: Readonly<Record<string, (bytes: Buffer) => Buffer>> = {
  gzip: (bytes) => gunzipSync(bytes, BOUNDED),
  'x-gzip': (bytes) => gunzipSync(bytes, BOUNDED),
  // "deflate" is the zlib format (RFC 9110 §8.4.1.2), but servers have sent raw deflate for
  // decades; browsers accept both, and so do we.
  deflate: (bytes) => {
    try {
      return inflateSync(bytes, BOUNDED);
    } catch (error) {
      if (tooLarge(error)) throw error;
      return inflateRawSync(bytes, BOUNDED);
    }
  },
  br: (bytes) => brotliDecompressSync(bytes, BOUNDED),
  zstd: (bytes) => zstdDecompressSync(bytes, BOUNDED),
};

/**
 * Layers of Content-Encoding decoded at most (curl's bound too): each layer is a synchronous
 * decompression on a segment's thread, and a response naming gzip 3,000 times over 870 KB held
 * it for seconds. More fail the request as decode_error.
 */
export const MAX_CODINGS = 5;

/** The codings of a Content-Encoding value that we decode, in the order to undo them. */
function codings(header: string): string[] | undefined {
  const list = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return list.every((c) => c in DECODERS) ? list.reverse() : undefined;
}

/**
 * The decoded body of `chunks` (the whole wire body, `wireBytes` long), undefined when it needs no
 * decoding or uses a coding we do not know (it stays as sent), or why it failed.
 */
export function decodeBody(
  contentEncoding: string,
  chunks: readonly Buffer[],
  wireBytes: number,
): Buffer | DecodeFailure | undefined {
  const order = codings(contentEncoding);
  if (order === undefined || order.length === 0) return undefined;
  if (wireBytes > MAX_KEPT_BODY) return 'body_too_large';
  if (order.length > MAX_CODINGS) return 'decode_error';
  let body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  try {
    for (const coding of order) body = DECODERS[coding]!(body);
  } catch (error) {
    return tooLarge(error) ? 'body_too_large' : 'decode_error';
  }
  return body;
}

function tooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}
