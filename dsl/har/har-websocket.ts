/**
 * A recorded WebSocket → the `session` of a ws endpoint (docs/configuration.md, WebSocket
 * endpoints). The handshake is recorded as a ws:// or wss:// url (Chrome), or as an http(s) one
 * answered 101 or asking `Upgrade: websocket` (mitmproxy); its frames, when the tool recorded
 * them, in `_webSocketMessages`. Each data frame becomes a step in recorded order: a sent text
 * frame `send: <text>` (literal: "{{" escaped), a sent binary one `send: { binary: base64:… }`, a
 * received one `receive: any`; control frames (close, ping, pong) are the connection's own and
 * are left out. A gap of MIN_PAUSE_MS or more between two frames becomes a `pause`, scaled like
 * think times. At most MAX_STEPS steps: the frames past them are dropped and counted. Message
 * bodies are user data and are replayed as recorded; only the handshake's headers and url go
 * through the secret rules (har-request.ts).
 */
import { escapeTemplate } from '../grammar/escape-template.js';
import type { HarEntry } from './har-schema.js';
import { duration } from './har-think.js';

/** Most steps a session gets from a recording. */
export const MAX_STEPS = 100;
/** Shortest gap between two frames written as a pause, in milliseconds. */
export const MIN_PAUSE_MS = 50;

/** One step of a session, as the configuration writes it. */
export type HarWsStep =
  | { readonly send: string | { readonly binary: string } }
  | { readonly receive: 'any' }
  | { readonly pause: string };

/** A recorded session: its steps, the subprotocols the browser offered, and the frames dropped. */
export interface HarWebSocket {
  readonly session: readonly HarWsStep[];
  readonly subprotocols: readonly string[];
  /** Data frames past MAX_STEPS, not replayed. */
  readonly dropped: number;
}

/** A recorded data frame. */
interface Frame {
  readonly sent: boolean;
  readonly time: number | undefined;
  readonly binary: boolean;
  readonly data: string;
}

/** True for a WebSocket handshake: a ws(s) url, a 101, or Upgrade: websocket. */
export function isWebSocket(entry: HarEntry, url: URL): boolean {
  if (url.protocol === 'ws:' || url.protocol === 'wss:') return true;
  if (entry.response.status === 101) return true;
  return entry.request.headers.some(
    (h) => h.name.toLowerCase() === 'upgrade' && h.value.trim().toLowerCase() === 'websocket',
  );
}

/** The recorded text and binary frames, in recorded order. */
function framesOf(entry: HarEntry): Frame[] {
  const frames: Frame[] = [];
  for (const message of entry._webSocketMessages ?? []) {
    if (message === undefined || (message.opcode !== 1 && message.opcode !== 2)) continue;
    const type = message.type.toLowerCase();
    if (type !== 'send' && type !== 'receive') continue;
    frames.push({
      sent: type === 'send',
      time: message.time,
      binary: message.opcode === 2,
      data: message.data,
    });
  }
  return frames;
}

/** True when the entry recorded at least one text or binary frame. */
export function hasRecordedFrames(entry: HarEntry): boolean {
  return framesOf(entry).length > 0;
}

/** The session of a recorded WebSocket; `scale` multiplies the pauses (0: none). */
export function toHarWebSocket(entry: HarEntry, scale: number): HarWebSocket {
  const steps: HarWsStep[] = [];
  const frames = framesOf(entry);
  let taken = 0;
  for (const [i, frame] of frames.entries()) {
    const pause = pauseBefore(frames[i - 1], frame, scale);
    const needed = pause === undefined ? 1 : 2;
    if (steps.length + needed > MAX_STEPS) break;
    if (pause !== undefined) steps.push({ pause });
    steps.push(stepOf(frame));
    taken++;
  }
  return { session: steps, subprotocols: subprotocolsOf(entry), dropped: frames.length - taken };
}

function stepOf(frame: Frame): HarWsStep {
  if (!frame.sent) return { receive: 'any' };
  if (!frame.binary) return { send: escapeTemplate(frame.data) };
  // Canonical base64, as the configuration requires (a recorder may leave out the padding).
  return { send: { binary: `base64:${Buffer.from(frame.data, 'base64').toString('base64')}` } };
}

/** The recorded gap before a frame as a pause ("300ms"), or undefined for none. */
function pauseBefore(before: Frame | undefined, frame: Frame, scale: number): string | undefined {
  if (before?.time === undefined || frame.time === undefined || scale <= 0) return undefined;
  const gap = (frame.time - before.time) * 1000;
  if (!(gap >= MIN_PAUSE_MS)) return undefined;
  return duration(Math.max(10, Math.round((gap * scale) / 10) * 10));
}

/** The subprotocols the browser offered (Sec-WebSocket-Protocol), in order. */
function subprotocolsOf(entry: HarEntry): string[] {
  return entry.request.headers
    .filter((h) => h.name.toLowerCase() === 'sec-websocket-protocol')
    .flatMap((h) => h.value.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}
