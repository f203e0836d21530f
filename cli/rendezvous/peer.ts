/**
 * The side of the rendezvous of every segment but the first (rendezvous-messages.ts): connect to
 * the first (retrying while it is not up yet or its name does not resolve yet, until the
 * readiness timeout), say ready with the plan's fingerprint, wait for the release, and at the end
 * send the raw result over the same connection.
 */
import { connect, type Socket } from 'node:net';
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { SegmentRef } from '../../model/plan/plan.js';
import type { RawResult } from '../../runtime/raw-result.js';
import type { CoordinatorAddress } from './rendezvous-flags.js';
import { readMessages, sendMessage, type RendezvousMessage } from './rendezvous-messages.js';

/** How long a segment waits for the first to acknowledge its result. */
const RESULT_ACK_MS = 60_000;
/** Between a released segment's `alive` messages. */
export const ALIVE_EVERY_MS = 5000;
/** Between attempts to reach the first segment. */
const RETRY_MS = 250;

/** What a segment tells the first. */
export interface PeerOptions {
  readonly address: CoordinatorAddress;
  readonly segment: SegmentRef;
  readonly fingerprint: string;
  readonly version: string;
  readonly readyTimeoutMs: number;
}

/** A released segment's link to the first: its start time, and where its result goes. */
export interface PeerLink {
  readonly startAt: number;
  /** Sends the result; undefined once acknowledged, else why it was not delivered. */
  sendResult(raw: RawResult): Promise<string | undefined>;
}

/** Joins the rendezvous; the link once released, or why not. */
export async function joinRendezvous(
  options: PeerOptions,
): Promise<{ ok: true; link: PeerLink } | { ok: false; reason: string }> {
  const deadline = Date.now() + options.readyTimeoutMs;
  const where = `${options.address.host}:${options.address.port}`;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    const socket = await tryConnect(options.address, deadline - Date.now()).catch(
      (error: unknown) => {
        lastError = error instanceof Error ? error.message : String(error);
        return undefined;
      },
    );
    if (socket !== undefined) return released(socket, options, deadline);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  return {
    ok: false,
    reason: `the first segment (${where}) was not reachable within ${formatDuration(options.readyTimeoutMs)}: ${lastError}`,
  };
}

async function tryConnect(address: CoordinatorAddress, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address.host, port: address.port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.setKeepAlive(true, 10_000);
      socket.removeAllListeners('error');
      socket.on('error', () => {});
      resolve(socket);
    });
    socket.once('timeout', () => socket.destroy(new Error('connection timed out')));
    socket.once('error', reject);
  });
}

/** Says ready on a connected socket and waits for the release (or a refusal). */
async function released(
  socket: Socket,
  options: PeerOptions,
  deadline: number,
): Promise<{ ok: true; link: PeerLink } | { ok: false; reason: string }> {
  const messages: ((message: RendezvousMessage) => void)[] = [];
  let closed: (() => void) | undefined;
  let ended = false;
  readMessages(
    socket,
    (message) => messages.shift()?.(message),
    () => {},
    () => {
      ended = true;
      closed?.();
    },
  );
  const next = (timeoutMs: number): Promise<RendezvousMessage | string> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve('no answer in time'), Math.max(0, timeoutMs));
      messages.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
      closed = () => {
        clearTimeout(timer);
        resolve('the first segment closed the connection');
      };
      if (ended) closed();
    });
  sendMessage(socket, {
    type: 'ready',
    version: options.version,
    fingerprint: options.fingerprint,
    segment: options.segment,
  });
  const answer = await next(deadline - Date.now());
  if (typeof answer === 'string' || answer.type !== 'go') {
    socket.destroy();
    const why =
      typeof answer === 'string'
        ? answer
        : answer.type === 'refused'
          ? answer.reason
          : `an unexpected ${answer.type}`;
    return { ok: false, reason: `the first segment refused the run: ${why}` };
  }
  const alive = setInterval(() => sendMessage(socket, { type: 'alive' }), ALIVE_EVERY_MS);
  alive.unref();
  return {
    ok: true,
    link: {
      startAt: answer.startAt,
      sendResult: async (raw) => {
        clearInterval(alive);
        sendMessage(socket, { type: 'result', raw });
        const ack = await next(RESULT_ACK_MS);
        socket.end();
        if (typeof ack !== 'string' && ack.type === 'done') return undefined;
        return typeof ack === 'string' ? ack : `an unexpected ${ack.type}`;
      },
    },
  };
}
