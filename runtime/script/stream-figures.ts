/**
 * What a script's response tells of a streamed call (docs/scenarios.md, Streamed responses): the
 * events or chunks that came and the time to the first, the figures its metrics recorded.
 */
import type { VirtualUser } from '../user/virtual-user.js';

/**
 * The events (sse) or chunks (chunks) of the virtual user's (or lane's) last call, -1 when it was
 * no stream, and ms from sending to the first, -1 when none came.
 */
export function streamFigures(vu: VirtualUser): [events: number, firstEventMs: number] {
  const exchange = vu.exchange;
  if (!exchange.streamed) return [-1, -1];
  return [exchange.streamPieces, vu.firstPieceUs < 0 ? -1 : vu.firstPieceUs / 1000];
}
