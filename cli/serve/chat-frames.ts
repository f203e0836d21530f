/**
 * The frames of /ws/chat, both directions. A client sends JSON text frames:
 *
 *   {"type":"say","id":<string | number>,"text":<string>}   broadcast to the room as a message
 *   {"type":"ping","id":<any JSON, optional>}               answered with a pong, to the sender
 *
 * and the server answers with JSON text frames whose `type` says what they are (welcome, joined,
 * left, message, pong, tick, error), so a client selects them by content. Outgoing frames are
 * serialized once into a Buffer, which every recipient's socket is handed as it is.
 */

/** What a client's frame asks for; `error` carries the ready frame that answers a bad one. */
export type ChatRequest =
  | { readonly type: 'say'; readonly id: string | number; readonly text: string }
  | { readonly type: 'ping'; readonly id: unknown }
  | { readonly type: 'error'; readonly frame: Buffer };

function frame(value: object): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function errorFrame(error: string): Buffer {
  return frame({ type: 'error', error });
}

const NOT_TEXT = errorFrame('a text frame (JSON), not a binary one');
const NOT_JSON = errorFrame(
  'a JSON object: {"type":"say","id":…,"text":…} or {"type":"ping","id":…}',
);
const UNKNOWN_TYPE = errorFrame('"type" to be "say" or "ping"');
const BAD_SAY = errorFrame('a say with "id" (a string or a number) and "text" (a string)');

/** Reads one client frame; anything but a well-formed say or ping becomes an error to answer. */
export function readChatFrame(data: Buffer, isBinary: boolean): ChatRequest {
  if (isBinary) return { type: 'error', frame: NOT_TEXT };
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    return { type: 'error', frame: NOT_JSON };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { type: 'error', frame: NOT_JSON };
  }
  const fields = value as Record<string, unknown>;
  if (fields.type === 'ping') return { type: 'ping', id: fields.id };
  if (fields.type !== 'say') return { type: 'error', frame: UNKNOWN_TYPE };
  const { id, text } = fields;
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof text !== 'string') {
    return { type: 'error', frame: BAD_SAY };
  }
  return { type: 'say', id, text };
}

/** The first frame a member gets: who it is, where, and how many are there with it. */
export function welcomeFrame(user: string, room: string, members: number): Buffer {
  return frame({ type: 'welcome', user, room, members });
}

/** Tells a room's others that `user` came in or went out. */
export function presenceFrame(type: 'joined' | 'left', user: string, room: string): Buffer {
  return frame({ type, user, room });
}

/** A say as the room receives it. */
export function messageFrame(
  from: string,
  id: string | number,
  text: string,
  room: string,
): Buffer {
  return frame({ type: 'message', from, id, text, room });
}

/** The answer to a ping; a ping without an id gets a pong without one. */
export function pongFrame(id: unknown): Buffer {
  return frame({ type: 'pong', id });
}

/** The n-th frame of a `?tick=` feed, stamped with the server's epoch milliseconds. */
export function tickFrame(n: number, at: number): Buffer {
  return frame({ type: 'tick', n, at });
}
