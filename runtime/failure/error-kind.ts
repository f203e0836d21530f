/**
 * Why an iteration failed, as a stable code. Kinds come from undici/ws/node error codes and HTTP
 * statuses, never from message text (STYLE.md: undici's errors carry a stable `code`).
 */
import type { ErrorKind } from '../../model/errors/error-kinds.js';

const BY_CODE: Readonly<Record<string, ErrorKind>> = {
  BARRAGE_TIMEOUT: 'timeout',
  BARRAGE_ABORTED: 'aborted',
  BARRAGE_PROXY_REFUSED: 'refused',
  BARRAGE_IDLE_TIMEOUT: 'idle_timeout',
  BARRAGE_STREAM_ENCODED: 'decode_error',
  BARRAGE_EVENT_TOO_LARGE: 'body_too_large',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  UND_ERR_CLOSED: 'socket',
  UND_ERR_DESTROYED: 'socket',
  EHOSTUNREACH: 'socket',
  ENETUNREACH: 'socket',
  EADDRNOTAVAIL: 'socket',
  UND_ERR_INVALID_ARG: 'invalid_request',
  UND_ERR_NOT_SUPPORTED: 'invalid_request',
  ERR_INVALID_URL: 'invalid_request',
  ERR_INVALID_HTTP_TOKEN: 'invalid_request',
  ERR_INVALID_CHAR: 'invalid_request',
  UND_ERR_ABORTED: 'aborted',
  ABORT_ERR: 'aborted',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'other',
};

/** Classifies a thrown error by its `code` (walking `cause`, as undici wraps socket errors). */
export function classifyError(error: unknown): ErrorKind {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      const kind = BY_CODE[code];
      if (kind !== undefined) return kind;
      if (
        code.startsWith('ERR_TLS') ||
        code.startsWith('ERR_SSL') ||
        code.includes('CERT') ||
        // OpenSSL's verification failures: UNABLE_TO_VERIFY_LEAF_SIGNATURE (an unknown CA)…
        code.startsWith('UNABLE_TO_')
      ) {
        return 'tls';
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return 'other';
}

/**
 * The failure kind of an HTTP status by the default rule, or undefined for a success (< 400). An
 * endpoint's `expect` decides instead (`unexpected_status`), after retries have decided on this
 * (runtime/checks/response-verifier.ts).
 */
export function classifyStatus(status: number): ErrorKind | undefined {
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  return undefined;
}
