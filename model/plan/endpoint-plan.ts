/** A compiled endpoint: everything a worker needs to send it, with templates pre-parsed. */
import type { LlmPlan } from './llm-plan.js';
import type { MetricKind, Tags } from '../metrics/metric-registry.js';
import type { VerifyPlan } from './check-plan.js';
import type { StatusSet } from './status-set.js';
import type { Template } from './template.js';
import type { SocketioPlan } from './socketio-plan.js';
import type { WsPlan } from './ws-session-plan.js';
import type { GrpcPlan } from './grpc-plan.js';

/**
 * Where an extracted variable's value is read from: the JSON body, a header, the first match of a
 * regular expression in the body (its first group), or the first element a CSS selector finds in
 * the body as HTML (an attribute, or its text when `attr` is undefined; attribute names lower case).
 * A JSON extractor keeps the user's RFC 9535 `path` (shown) and the text jsonpath-plus evaluates to
 * the same first value (`evaluatorPath`, json-path-query.ts).
 */
export type ExtractorPlan =
  | {
      readonly variable: string;
      readonly from: 'json';
      readonly path: string;
      readonly evaluatorPath: string;
      /** Which value of those found: the first (undefined), one drawn at random, or all as a list. */
      readonly pick?: 'random' | 'all';
    }
  | { readonly variable: string; readonly from: 'header'; readonly header: string }
  | { readonly variable: string; readonly from: 'regex'; readonly pattern: string }
  | {
      readonly variable: string;
      readonly from: 'css';
      readonly selector: string;
      readonly attr: string | undefined;
    };

/** A custom metric an endpoint feeds: the value its extractor reads is one sample of it. */
export interface EndpointMetricPlan {
  readonly kind: MetricKind;
  readonly extractor: ExtractorPlan;
  /** The samples' tags but `status`: the run's and the endpoint's own, `endpoint`, `method`. */
  readonly tags: Tags;
}

/** A pause drawn uniformly from [minMs, maxMs] (equal for a fixed pause), seeded per worker. */
export interface ThinkRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/**
 * A multipart/form-data part: a text field (templated), a file read at load time, or a file per
 * user: its path a template of feeder fields, each file it renders to read at load time.
 */
export type MultipartPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: Template }
  | {
      readonly kind: 'file';
      readonly name: string;
      readonly bytes: Uint8Array;
      readonly filename: string;
      readonly contentType: string;
    }
  | {
      readonly kind: 'files';
      readonly name: string;
      /** The path, rendered per request (raw), which names one of `files`. */
      readonly path: Template;
      /** Every file the path may render to, by that path. */
      readonly files: ReadonlyMap<string, Uint8Array>;
      /** The file name sent; undefined: the rendered path's last segment. */
      readonly filename: string | undefined;
      readonly contentType: string;
    };

/**
 * A request body: text sent as it renders (a text body, a mapping as JSON, form fields), or
 * multipart/form-data parts, encoded by the platform's FormData (runtime/http/multipart-body.ts).
 */
export type BodyPlan =
  | { readonly kind: 'text'; readonly text: Template }
  /** Bytes sent as they are (a scenario's ArrayBuffer or typed array). */
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'multipart'; readonly parts: readonly MultipartPart[] };

/**
 * An endpoint whose url starts with a placeholder: `path` renders the whole url at request time.
 * A path ("/login") goes to the endpoint's origin (the target's); an absolute http(s) url goes to
 * its own origin when its host is the target's host:port or in `allowedHosts` (a name allows every
 * port of it, name:port that port); anything else is not sent (url_not_allowed).
 */
export interface UrlFromVariablePlan {
  readonly allowedHosts: readonly string[];
}

/** A header with a templated value; names keep the user's spelling. */
export interface HeaderPlan {
  readonly name: string;
  readonly value: Template;
}

/**
 * How a streamed response is read: `sse` event by event (text/event-stream), `chunks` piece by
 * piece as the transport delivers the body (NDJSON, chunked JSON, any progressive body).
 */
export const STREAM_KINDS = ['sse', 'chunks'] as const;

/** One of STREAM_KINDS. */
export type StreamKind = (typeof STREAM_KINDS)[number];

/**
 * What a request accepts unless its headers say otherwise: the codings browsers send, all of which
 * responses are decoded from (runtime/http/response-body.ts), so a server's compression path is
 * what gets load-tested.
 */
const DEFAULT_ACCEPT_ENCODING = 'gzip, deflate, br';

/** The defaults of a buffered response, of an sse stream, of a chunked one. */
const PLAIN_DEFAULTS: readonly [string, string][] = [['accept-encoding', DEFAULT_ACCEPT_ENCODING]];
const SSE_DEFAULTS: readonly [string, string][] = [['accept', 'text/event-stream']];
const CHUNKS_DEFAULTS: readonly [string, string][] = [];

/**
 * The headers a request gets when its own and the run's lack them (by name, any case). A stream
 * asks for no compression (its body is read as it comes, and a compressed one cannot be), and an
 * sse one for `text/event-stream`.
 */
export function defaultHeaders(stream: StreamKind | undefined): readonly [string, string][] {
  if (stream === undefined) return PLAIN_DEFAULTS;
  return stream === 'sse' ? SSE_DEFAULTS : CHUNKS_DEFAULTS;
}

/**
 * A response read as a stream (docs/configuration.md, Streamed responses): timed event by event
 * (sse) or chunk by chunk (chunks), failing as idle_timeout when no event or chunk comes within
 * `idleTimeoutMs` (undefined: only the request's timeout bounds it).
 */
export interface StreamPlan {
  readonly kind: StreamKind;
  readonly idleTimeoutMs: number | undefined;
}

/**
 * `reauth:` (docs/configuration.md, Re-authorization): a response with a status in `on` is an
 * attempt, then endpoint `run` (which extracts the new token) is sent, then the request once more.
 */
export interface ReauthPlan {
  readonly on: StatusSet;
  /** The refresh endpoint's index. */
  readonly run: number;
}

/** An endpoint ready to run. */
export interface EndpointPlan {
  /** Index in ScenarioGraph.endpoints; metrics are recorded under it. */
  readonly index: number;
  readonly name: string;
  readonly protocol: 'http' | 'ws' | 'socketio' | 'grpc';
  readonly method: string;
  /**
   * scheme://host:port, fixed at compile time (placeholders are not allowed there), but for a url
   * from a variable (`urlFromVariable`), which may go elsewhere.
   */
  readonly origin: string;
  /** Path and query, starting with "/", templated; the whole url when `urlFromVariable` is set. */
  readonly path: Template;
  /** `query:` as form-encoded text (`a=1&b=x`), appended to the url's own query. */
  readonly query: Template | undefined;
  readonly urlFromVariable: UrlFromVariablePlan | undefined;
  /** The url as the user wrote it, for display. */
  readonly url: string;
  readonly headers: readonly HeaderPlan[];
  readonly body: BodyPlan | undefined;
  readonly extract: readonly ExtractorPlan[];
  /** Custom metrics fed from the response (`metrics:`): each extractor's `variable` is the metric. */
  readonly metrics: readonly EndpointMetricPlan[];
  /** Expected statuses and checks of the response; undefined when it has neither. */
  readonly verify: VerifyPlan | undefined;
  readonly setup: boolean;
  readonly weight: number;
  readonly timeoutMs: number;
  /** The response is a stream read event by event; undefined: a body read whole. */
  readonly stream: StreamPlan | undefined;
  /** Redirects followed before the request fails as too_many_redirects; 0 follows none. */
  readonly maxRedirects: number;
  /** An LLM inference endpoint's token layout and goodput SLOs (docs/llm.md); else undefined. */
  readonly llm: LlmPlan | undefined;
  /** Pause after the response, before the worker's next step or iteration. */
  readonly think: ThinkRange | undefined;
  readonly ws: WsPlan | undefined;
  /** A Socket.IO endpoint's session (docs/socketio.md); else undefined. */
  readonly socketio?: SocketioPlan | undefined;
  /** A grpc:// or grpcs:// endpoint's call (docs/grpc.md); else undefined. */
  readonly grpc?: GrpcPlan | undefined;
  /** Variables this endpoint's templates read, in order of first use. */
  readonly needs: readonly string[];
  /** On one of these statuses, run the refresh endpoint and send the request once more. */
  readonly reauth?: ReauthPlan;
  /** The endpoint's own tags (`tags:`), besides its method, its scenario's and the run's. */
  readonly tags: Tags;
}
