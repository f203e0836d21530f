/**
 * The API's `encoding`, k6/encoding's base64: `b64encode(data, variant)` and
 * `b64decode(text, variant, format)`, the variants Go's (std, rawstd, url, rawurl), coded by the
 * host's Buffer (sandbox/web-host.ts).
 */
import { text } from './dom-exception.js';
import { ownBytes } from './text-coding.js';
import { web } from './web-call.js';

const input = (value: unknown): string | ArrayBuffer => {
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return ownBytes(value);
  throw new TypeError('encoding.b64encode(): a string, an ArrayBuffer or a typed array');
};

/** The helper (the API's `encoding`). */
export const barrageEncoding = Object.freeze({
  b64encode: (data: unknown, variant: unknown = 'std'): string =>
    web('b64encode', input(data), text(variant)),
  b64decode: (data: unknown, variant: unknown = 'std', format?: unknown): string | ArrayBuffer => {
    const bytes = web('b64decode', text(data), text(variant));
    if (format === 's') return web('decode', 'utf-8', false, false, bytes.buffer as ArrayBuffer);
    return bytes.buffer as ArrayBuffer;
  },
});
