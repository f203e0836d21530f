/**
 * One request and its response as the HTTP debug log writes it and the reports' sample failures
 * show it (docs/reports.md, Sample failures): plain data in the log's own snake_case spelling, so
 * that it crosses threads, processes and raw files as it is. Bodies hold their first bytes as
 * text; runtime captures CAPTURED_BODY_BYTES of them (body-capture.ts), and the edge that
 * redacts a record cuts them to what is shown.
 */

/** A body as captured: its first bytes as text, or `<N bytes binary>`; null when not kept. */
export interface CapturedBody {
  readonly body: string | null;
  /** Present when `body` is not the whole body. */
  readonly body_truncated?: true;
  /** The whole body's size in bytes (a compressed response's decoded size). */
  readonly body_bytes: number;
}

/** Header names and values as they were sent or received; repeated names joined with ", ". */
export type RecordedHeaders = Readonly<Record<string, string>>;

/** The request of a record (its last redirect hop's, which the response answers). */
export interface RecordedRequest extends CapturedBody {
  readonly headers: RecordedHeaders;
}

/** The response of a record. */
export interface RecordedResponse extends CapturedBody {
  readonly status: number;
  readonly headers: RecordedHeaders;
}

/** One request, its response (null when none came), its timings and how it failed. */
export interface ExchangeRecord {
  /** When the request was sent (its final attempt), ISO 8601. */
  readonly time: string;
  /** The named scenario that sent it; absent in a run of the top-level form. */
  readonly scenario?: string;
  readonly endpoint: string;
  readonly vu?: number;
  readonly method: string;
  readonly url: string;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse | null;
  readonly timings: {
    /** Time to first byte, less the connection the request opened; null without headers. */
    readonly waiting_ms: number | null;
    readonly duration_ms: number;
    /** An LLM endpoint's time to its first output-bearing event, as llm_time_to_first_token. */
    readonly first_token_ms?: number;
  };
  /** Why the request failed; null for one that succeeded (`--http-debug=all`). */
  readonly error_kind: string | null;
  /** The transport error's message, when there was one. */
  readonly error?: string;
}
