/**
 * The rooms of /ws/chat: who is in which room, within bounds a load test cannot outgrow (members
 * per room, rooms), and the one way frames reach members. One per running target server, so two
 * servers in one process never share a room. Nothing is kept per message: a frame is serialized
 * once and handed to each member's socket.
 */
import type { WebSocket } from 'ws';

/** Members a room holds before /ws/chat refuses the next with 503. */
export const MAX_CHAT_MEMBERS = 1000;
/** Rooms held at once before /ws/chat refuses a new one with 503. */
export const MAX_CHAT_ROOMS = 10_000;
/**
 * Bytes queued to one member and not yet taken by its socket past which it is cut: a member that
 * stops reading must not make the server hold every frame its room sends.
 */
export const MAX_CHAT_BACKLOG = 4 * 1024 * 1024;

/** One connection of /ws/chat: its socket, the user its token names, and its room. */
export interface ChatMember {
  readonly ws: WebSocket;
  readonly user: string;
  readonly room: string;
}

/** Sends `frame` as text unless the socket is no longer open; cuts a member that stopped reading. */
export function sendFrame(ws: WebSocket, frame: Buffer): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount > MAX_CHAT_BACKLOG) {
    ws.terminate();
    return;
  }
  ws.send(frame, { binary: false });
}

/** The rooms of one target server. */
export class ChatRooms {
  readonly #rooms = new Map<string, Set<ChatMember>>();
  readonly #maxMembers: number;
  readonly #maxRooms: number;

  constructor(maxMembers = MAX_CHAT_MEMBERS, maxRooms = MAX_CHAT_ROOMS) {
    this.#maxMembers = maxMembers;
    this.#maxRooms = maxRooms;
  }

  /** Why `room` cannot take one more member now, or undefined when it can. */
  refusal(room: string): string | undefined {
    const members = this.#rooms.get(room);
    if (members === undefined) {
      return this.#rooms.size < this.#maxRooms ? undefined : `too many rooms (${this.#maxRooms})`;
    }
    return members.size < this.#maxMembers
      ? undefined
      : `room is full (${this.#maxMembers} members)`;
  }

  /** Adds `member` to its room (checked by refusal() first); returns the room's member count. */
  join(member: ChatMember): number {
    let members = this.#rooms.get(member.room);
    if (members === undefined) {
      members = new Set();
      this.#rooms.set(member.room, members);
    }
    members.add(member);
    return members.size;
  }

  /** Removes `member` from its room, and forgets the room once it is empty. */
  leave(member: ChatMember): void {
    const members = this.#rooms.get(member.room);
    if (members === undefined) return;
    members.delete(member);
    if (members.size === 0) this.#rooms.delete(member.room);
  }

  /** Sends `frame` to every member of `room` but `except`. */
  broadcast(room: string, frame: Buffer, except?: ChatMember): void {
    const members = this.#rooms.get(room);
    if (members === undefined) return;
    for (const member of members) if (member !== except) sendFrame(member.ws, frame);
  }
}
