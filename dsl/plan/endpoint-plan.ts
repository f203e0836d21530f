/** A compiled endpoint: everything a worker needs to send it, with templates pre-parsed. */
import type { Template } from './template.js';

/**
 * Where an extracted variable's value is read from: the JSON body, a header, the first match of a
 * regular expression in the body (its first group), or the first element a CSS selector finds in
 * the body as HTML (an attribute, or its text when `attr` is undefined; attribute names lower case).
 */
export type ExtractorPlan =
  | { readonly variable: string; readonly from: 'json'; readonly path: string }
  | { readonly variable: string; readonly from: 'header'; readonly header: string }
  | { readonly variable: string; readonly from: 'regex'; readonly pattern: string }
  | {
      readonly variable: string;
      readonly from: 'css';
      readonly selector: string;
      readonly attr: string | undefined;
    };

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
  readonly ws: WsPlan | undefined;
  /** Variables this endpoint's templates read, in order of first use. */
  readonly needs: readonly string[];
}
