/**
 * The web's TextEncoder and TextDecoder (sandbox/web-globals.ts): UTF-8 is coded by the host's.
 */
import { needs, text } from './dom-exception.js';
import { web } from './web-call.js';

/** Only the bytes a view covers cross to the host, not its whole buffer. */
export const ownBytes = (data: ArrayBuffer | ArrayBufferView): ArrayBuffer => {
  if (data instanceof ArrayBuffer) return data;
  const buffer = data.buffer as ArrayBuffer;
  if (data.byteOffset === 0 && data.byteLength === buffer.byteLength) return buffer;
  return buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
};

export class TextEncoder {
  get encoding(): string {
    return 'utf-8';
  }
  encode(input: unknown = ''): Uint8Array {
    return web('encode', text(input));
  }
  encodeInto(source: unknown, destination: unknown): { read: number; written: number } {
    needs(2, arguments.length, 'TextEncoder.encodeInto');
    if (!(destination instanceof Uint8Array))
      throw new TypeError('TextEncoder.encodeInto(): the destination must be a Uint8Array');
    const [read, written, bytes] = web('encodeInto', text(source), destination.length);
    destination.set(bytes);
    return { read, written };
  }
}

/** TextDecoder's options. */
interface DecoderOptions {
  readonly fatal?: unknown;
  readonly ignoreBOM?: unknown;
  readonly stream?: unknown;
}

export class TextDecoder {
  readonly #label: string;
  readonly #fatal: boolean;
  readonly #ignoreBOM: boolean;
  readonly #encoding: string;
  constructor(label: unknown = 'utf-8', options: DecoderOptions | undefined = undefined) {
    this.#label = text(label);
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
    this.#encoding = web('decoder', this.#label, this.#fatal, this.#ignoreBOM);
  }
  get encoding(): string {
    return this.#encoding;
  }
  get fatal(): boolean {
    return this.#fatal;
  }
  get ignoreBOM(): boolean {
    return this.#ignoreBOM;
  }
  decode(input: unknown = undefined, options: DecoderOptions | undefined = undefined): string {
    if (options?.stream)
      throw new TypeError('TextDecoder.decode(): { stream: true } is not supported in a scenario');
    if (input === undefined) return '';
    if (!(input instanceof ArrayBuffer) && !ArrayBuffer.isView(input))
      throw new TypeError('TextDecoder.decode(): an ArrayBuffer, a typed array or a DataView');
    return web('decode', this.#label, this.#fatal, this.#ignoreBOM, ownBytes(input));
  }
}
