/**
 * snappyjs (runtime/outputs/prometheus-output.ts compresses remote write requests with it) ships no
 * types: the two functions of its index, as it exports them (a Uint8Array in, one out; a Buffer
 * in, a Buffer out).
 */
declare module 'snappyjs' {
  /** Snappy's block format of `uncompressed` (not its framing format). */
  export function compress(uncompressed: Uint8Array): Uint8Array;
  /** The bytes of a snappy block; throws when it is not one, or is longer than `maxLength`. */
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}
