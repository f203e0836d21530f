/**
 * Whether an endpoint is a WebSocket session: its url, joined to the target, is ws:// or wss://
 * (docs/configuration.md, WebSocket endpoints), so `/chat` under `target: ws://…` is one. A url
 * taken from a variable is an HTTP request (validation refuses it under a WebSocket target).
 */
import { isWebSocketUrl, joinUrl } from '../../model/request/url-rules.js';
import { startsWithVariable } from '../grammar/placeholder.js';

/** True for an endpoint whose url, joined to the target, is ws:// or wss://. */
export function isWebSocketEndpoint(url: string, target: string | undefined): boolean {
  return !startsWithVariable(url) && isWebSocketUrl(joinUrl(target, url));
}
