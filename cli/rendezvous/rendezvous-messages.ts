/**
 * The rendezvous's messages (docs/distributed.md, Kubernetes): JSON lines over one TCP connection
 * from each segment to the first. A segment says it is ready (its plan's fingerprint), the first
 * releases all together (`go`, a start time) or refuses (`refused`, why); at the end each sends
 * its raw result (the `--raw` format, checked by raw-result-schema.ts) and the first acknowledges
 * it (`done`); meanwhile each says `alive` every few seconds. node:readline splits the lines; zod checks every message read.
 */
import { createInterface } from 'node:readline';
import type { Socket } from 'node:net';
import * as z from 'zod';

/** The largest a connection may send in all (a raw result is at most 256 MiB). */
const MAX_CONNECTION_BYTES = 256 * 1024 * 1024 + 64 * 1024;

const segmentRef = z.strictObject({
  index: z.number().int().min(1),
  count: z.number().int().min(2),
});

/** Every message, by its `type`. */
export const rendezvousMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('ready'),
    version: z.string(),
    fingerprint: z.string(),
    segment: segmentRef,
  }),
  z.strictObject({ type: z.literal('go'), startAt: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('refused'), reason: z.string() }),
  z.strictObject({ type: z.literal('result'), raw: z.unknown() }),
  z.strictObject({ type: z.literal('done') }),
  // Sent every few seconds while a released segment runs: silence means it is gone.
  z.strictObject({ type: z.literal('alive') }),
]);

/** A message of the rendezvous. */
export type RendezvousMessage = z.infer<typeof rendezvousMessage>;

/** Writes one message as a JSON line. */
export function sendMessage(socket: Socket, message: RendezvousMessage): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}

/**
 * Calls `onMessage` for each message read from `socket`, `onInvalid` (and closes the
 * connection) for a line that is not one, or when the connection sends too much, and `onEnd`
 * once the connection has closed and every line before was read.
 */
export function readMessages(
  socket: Socket,
  onMessage: (message: RendezvousMessage) => void,
  onInvalid: (problem: string) => void,
  onEnd: () => void = () => {},
): void {
  let bytes = 0;
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= MAX_CONNECTION_BYTES) return;
    onInvalid(`more than ${MAX_CONNECTION_BYTES} bytes`);
    socket.destroy();
  });
  const lines = createInterface({ input: socket, crlfDelay: Infinity });
  lines.on('close', onEnd);
  // A connection reset ends no stream: the lines end with the socket.
  socket.on('close', () => lines.close());
  lines.on('line', (line) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    const parsed = rendezvousMessage.safeParse(value);
    if (parsed.success) onMessage(parsed.data);
    else {
      onInvalid(`not a rendezvous message: ${line.slice(0, 80)}`);
      socket.destroy();
    }
  });
}
