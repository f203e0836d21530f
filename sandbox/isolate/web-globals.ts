/**
 * The web globals of a scenario's context (docs/scenarios.md, "Environment and web globals"):
 * URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, structuredClone, crypto
 * (randomUUID, getRandomValues) and DOMException, with their web semantics. The sandbox's V8 has
 * none of them; parsing, encoding, hashing and randomness are done by Node's own implementations
 * on the host (sandbox/web-host.ts), called synchronously (about 2 µs a call), so nothing here
 * parses a URL or codes UTF-8 by hand. What is left in the isolate is the objects' shape: a URL's
 * parts, a query's list of pairs and its link to its URL, argument checks, and turning the host's
 * answers into the errors the web throws. Shared by the options reader and the virtual users.
 */
import { barrageCrypto, type BarrageCrypto } from './barrage-crypto.js';
import { DOMException, domResult, needs, text } from './dom-exception.js';
import { TextDecoder, TextEncoder } from './text-coding.js';
import { URL, URLSearchParams } from './url.js';
import { getRandomValues, randomUUID } from './web-crypto.js';
import { setWebCall, web, type WebCall } from './web-call.js';

function atob(data: unknown): string {
  needs(1, arguments.length, 'atob');
  return domResult(web('atob', text(data)));
}

function btoa(data: unknown): string {
  needs(1, arguments.length, 'btoa');
  return domResult(web('btoa', text(data)));
}

function structuredClone(
  value: unknown,
  options: { transfer?: Iterable<unknown> } | undefined = undefined,
): unknown {
  needs(1, arguments.length, 'structuredClone');
  const transfer = options?.transfer;
  if (transfer !== undefined && [...transfer].length > 0)
    throw new DOMException(
      'structuredClone(): transfer is not supported in a scenario',
      'DataCloneError',
    );
  try {
    return web('clone', value);
  } catch (error) {
    throw new DOMException(text((error as Error | undefined)?.message), 'DataCloneError');
  }
}

/** Installs the web globals on the context's global; returns barrage's crypto helper. */
export function installWebGlobals(call: WebCall): BarrageCrypto {
  setWebCall(call);
  const globals = {
    DOMException,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    atob,
    btoa,
    structuredClone,
    crypto: Object.freeze({ getRandomValues, randomUUID }),
  };
  for (const [name, value] of Object.entries(globals))
    Object.defineProperty(globalThis, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  return barrageCrypto;
}
