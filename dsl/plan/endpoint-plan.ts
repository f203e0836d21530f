/** A compiled endpoint: everything a worker needs to send it, with templates pre-parsed. */
import type { Template } from './template.js';

/** Where an extracted variable's value is read from. */
export type ExtractorPlan =
  | { readonly variable: string; readonly from: 'json'; readonly path: string }
  | { readonly variable: string; readonly from: 'header'; readonly header: string };

/** One WebSocket message: text (templated) or bytes. */
export type WsMessagePlan =
  | { readonly kind: 'text'; readonly text: Template }
  | { readonly kind: 'binary'; readonly bytes: Uint8Array };

/** The WebSocket part of an endpoint whose url is ws:// or wss://. */
export interface WsPlan {
  readonly messages: readonly WsMessagePlan[];
  readonly intervalMs: number;
  readonly subprotocols: readonly string[];
}

/** A pause drawn uniformly from [minMs, maxMs] (equal for a fixed pause), seeded per worker. */
export interface ThinkRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/** A header with a templated value; names keep the user's spelling. */
export interface HeaderPlan {
  readonly name: string;
  readonly value: Template;
}

/** An endpoint ready to run. */
export interface EndpointPlan {
  /** Index in ScenarioGraph.endpoints; metrics are recorded under it. */
  readonly index: number;
  readonly name: string;
  readonly protocol: 'http' | 'ws';
  readonly method: string;
  /** scheme://host:port, fixed at compile time (placeholders are not allowed there). */
  readonly origin: string;
  /** Path and query, starting with "/", templated. */
  readonly path: Template;
  /** The url as the user wrote it, for display. */
  readonly url: string;
  readonly headers: readonly HeaderPlan[];
  readonly body: Template | undefined;
  readonly extract: readonly ExtractorPlan[];
  readonly setup: boolean;
  readonly weight: number;
  readonly timeoutMs: number;
  /** Redirects followed before the request fails as too_many_redirects; 0 follows none. */
  readonly maxRedirects: number;
  /** Pause after the response, before the worker's next step or iteration. */
  readonly think: ThinkRange | undefined;
  readonly ws: WsPlan | undefined;
  /** Variables this endpoint's templates read, in order of first use. */
  readonly needs: readonly string[];
}
