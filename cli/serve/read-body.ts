/**
 * Bounded request-body reading for the few target routes that need a body. Past the cap the
 * rest is read and discarded rather than the socket cut, so the client sees a clean 413 on a
 * connection it can keep using instead of a reset in the middle of its upload.
 */
import type { IncomingMessage } from 'node:http';

/** The largest request body a target route accepts (1 MiB); larger ones get 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads the whole body: its bytes, or null when it passed `limit` (the excess is drained). */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > limit;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      length += chunk.length;
      if (length > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => {
      settled = true;
      resolve(tooLarge ? null : Buffer.concat(chunks, length));
    });
    req.on('error', (error) => {
      settled = true;
      reject(error);
    });
    // A client that goes away mid-body ends in 'close' without 'end' (and not always 'error').
    req.on('close', () => {
      if (!settled) reject(new Error('request closed before its body ended'));
    });
  });
}

/** True when the request body is declared application/x-www-form-urlencoded (parameters aside). */
export function isFormContentType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'application/x-www-form-urlencoded';
}
