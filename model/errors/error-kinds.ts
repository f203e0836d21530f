/**
 * The failure kinds barrage reports, as stable codes (runtime/failure/error-kind.ts tells which
 * error or status is which). Plain data: configurations check `{error_kind=…}` threshold tags
 * against it, and the recorder counts by it.
 */

/** Every failure kind barrage reports. */
export const ERROR_KINDS = [
  'timeout',
  'refused',
  'reset',
  'dns',
  'tls',
  'socket',
  'http_4xx',
  'http_5xx',
  'unexpected_status',
  'check_failed',
  'missing_variable',
  'variable_limit',
  'invalid_request',
  'url_not_allowed',
  'extract_error',
  'decode_error',
  'body_too_large',
  'too_many_redirects',
  'idle_timeout',
  'aborted',
  'interrupted',
  'ws_handshake',
  'ws_abnormal_close',
  'ws_timeout',
  'grpc_status',
  'script_error',
  'script_timeout',
  'script_memory',
  'other',
] as const;

/** A failure kind. */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Each kind's position in ERROR_KINDS: the slot of its count in the recorders' arrays. */
export const ERROR_KIND_INDEX: ReadonlyMap<ErrorKind, number> = new Map(
  ERROR_KINDS.map((k, i) => [k, i]),
);
