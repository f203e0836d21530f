/**
 * The web's crypto global (getRandomValues, randomUUID): bytes from the host's CSPRNG.
 */
import { DOMException } from './dom-exception.js';
import { MAX_RANDOM_BYTES, web } from './web-call.js';

const INTEGER_ARRAYS = new Set([
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
]);
// eslint-disable-next-line @typescript-eslint/unbound-method -- called on each array with .call
const typedArrayTag = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  Symbol.toStringTag,
)!.get!;

/** crypto.getRandomValues(): fills an integer typed array. */
export const getRandomValues = <T>(array: T): T => {
  if (!ArrayBuffer.isView(array))
    throw new TypeError('crypto.getRandomValues(): an integer typed array');
  if (!INTEGER_ARRAYS.has(typedArrayTag.call(array) as string))
    throw new DOMException(
      'crypto.getRandomValues(): the array must be an integer typed array',
      'TypeMismatchError',
    );
  if (array.byteLength > MAX_RANDOM_BYTES)
    throw new DOMException(
      `crypto.getRandomValues(): ${array.byteLength} bytes asked, more than ${MAX_RANDOM_BYTES}`,
      'QuotaExceededError',
    );
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(
    web('random', array.byteLength),
  );
  return array;
};

/** crypto.randomUUID(). */
export const randomUUID = (): string => web('uuid');
