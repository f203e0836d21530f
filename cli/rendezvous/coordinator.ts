/**
 * The first segment's side of the rendezvous (rendezvous-messages.ts): it listens, waits until
 * the other n-1 segments are ready with its own plan's fingerprint, then releases them all with
 * one start time (now + a margin); a mismatch, a duplicated segment or the readiness timeout
 * refuses every segment before any traffic. During the run it notes a segment whose connection
 * closes before its result, or that stops saying it is alive (lost: which, and when); at the end
 * it waits for the raw results of the segments still alive.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { isIP } from 'node:net';
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { RawResult } from '../../runtime/raw-result.js';
import { parseRawResult } from '../raw-result-schema.js';
import type { CoordinatorAddress } from './rendezvous-flags.js';
import { readMessages, sendMessage, type RendezvousMessage } from './rendezvous-messages.js';

/** What the first segment expects of the others. */
export interface CoordinatorOptions {
  readonly address: CoordinatorAddress;
  readonly count: number;
  readonly fingerprint: string;
  readonly version: string;
  readonly readyTimeoutMs: number;
  /** From the release to the start: time for every segment to receive it and get ready. */
  readonly marginMs: number;
  /** Progress lines (stderr). */
  readonly say: (line: string) => void;
}

/** A segment's result, or why there is none. */
export type PeerResult =
  | { readonly index: number; readonly raw: RawResult }
  | { readonly index: number; readonly lost: string };

/** The released run: its start time; the results, once every segment sent or was lost. */
export interface CoordinatorSession {
  readonly startAt: number;
  /** Every other segment's result, waiting while it is alive (it says so every few seconds). */
  results(): Promise<PeerResult[]>;
  close(): void;
}

interface Peer {
  readonly socket: Socket;
  result?: PeerResult;
  /** When it last sent anything (epoch ms). */
  seen: number;
}

/** A released segment silent this long (it says `alive` every 5 s) is lost: its node is gone. */
const SILENCE_MS = 30_000;

type Readiness = { ok: true } | { ok: false; reason: string };

/** Listens and gathers the segments; the session, or why the run is refused. */
export async function gatherSegments(
  options: CoordinatorOptions,
): Promise<{ ok: true; session: CoordinatorSession } | { ok: false; reason: string }> {
  const gathering = new Gathering(options);
  const server = createServer((socket) => gathering.accept(socket));
  const listening = await listen(server, options.address);
  if (listening !== undefined) return { ok: false, reason: listening };
  const seconds = formatDuration(options.readyTimeoutMs);
  options.say(
    `waiting for ${options.count - 1} segments on port ${options.address.port} (up to ${seconds})`,
  );
  const timer = setTimeout(() => {
    gathering.refuseAll(
      `the rendezvous timed out after ${seconds}: ${missingIndexes(options.count, gathering.peers)} not ready`,
    );
  }, options.readyTimeoutMs);
  const outcome = await gathering.ready;
  clearTimeout(timer);
  if (!outcome.ok) {
    server.close();
    // Each was sent why; a segment that does not hang up is not waited for.
    setTimeout(() => gathering.closeAll(), 1000).unref();
    return outcome;
  }
  const startAt = gathering.release();
  return {
    ok: true,
    session: {
      startAt,
      results: () => gathering.results(),
      close: () => {
        gathering.closeAll();
        server.close();
      },
    },
  };
}

/** The segments met so far, and what each sent. */
class Gathering {
  readonly peers = new Map<number, Peer>();
  readonly #sockets = new Set<Socket>();
  readonly ready: Promise<Readiness>;
  #released = false;
  #settle: (outcome: Readiness) => void = () => {};
  #changed: () => void = () => {};
  readonly #options: CoordinatorOptions;

  constructor(options: CoordinatorOptions) {
    this.#options = options;
    this.ready = new Promise((resolve) => (this.#settle = resolve));
  }

  /** A new connection: its messages, and its loss. */
  accept(socket: Socket): void {
    this.#sockets.add(socket);
    socket.setKeepAlive(true, 10_000);
    let index = 0;
    readMessages(
      socket,
      (message) => {
        if (message.type === 'ready' && !this.#released) index = message.segment.index;
        const peer = this.peers.get(index);
        if (peer?.socket === socket) peer.seen = Date.now();
        if (message.type === 'ready') this.#onReady(socket, message);
        if (message.type === 'result') this.#onResult(socket, index, message.raw);
      },
      (problem) =>
        this.#options.say(`a connection from ${socket.remoteAddress ?? '?'} sent ${problem}`),
    );
    socket.on('error', () => {});
    socket.on('close', () => {
      this.#sockets.delete(socket);
      this.#onClose(socket, index);
    });
  }

  /** Refuses the run to every segment connected. */
  refuseAll(reason: string): void {
    for (const socket of this.#sockets) {
      sendMessage(socket, { type: 'refused', reason });
      socket.end();
    }
    this.#settle({ ok: false, reason });
  }

  /** Drops every connection. */
  closeAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Releases every segment; returns the start time. */
  release(): number {
    this.#released = true;
    const startAt = Date.now() + this.#options.marginMs;
    for (const peer of this.peers.values()) sendMessage(peer.socket, { type: 'go', startAt });
    return startAt;
  }

  /** Every segment's result or loss: a segment is waited for while it says it is alive. */
  async results(): Promise<PeerResult[]> {
    const pending = (): Peer[] => [...this.peers.values()].filter((p) => p.result === undefined);
    while (pending().length > 0) {
      await new Promise<void>((resolve) => {
        const tick = setTimeout(resolve, 1000);
        this.#changed = () => {
          clearTimeout(tick);
          resolve();
        };
      });
      for (const [index, peer] of this.peers)
        if (peer.result === undefined && Date.now() - peer.seen > SILENCE_MS)
          this.#lose(
            index,
            peer,
            `lost at ${new Date(peer.seen).toISOString()}: silent since (no word for ${SILENCE_MS / 1000} s)`,
          );
    }
    return [...this.peers.values()].map((p) => p.result!);
  }

  #lose(index: number, peer: Peer, lost: string): void {
    peer.result = { index, lost };
    this.#options.say(`segment ${index}/${this.#options.count} ${lost}`);
    this.#changed();
  }

  #onReady(socket: Socket, message: Extract<RendezvousMessage, { type: 'ready' }>): void {
    const { count, say } = this.#options;
    const problem = readyProblem(this.#options, this.peers, message, this.#released);
    if (problem !== undefined && this.#released) {
      // The run is under way: refuse only the newcomer.
      say(problem);
      sendMessage(socket, { type: 'refused', reason: problem });
      socket.end();
      return;
    }
    if (problem !== undefined) return this.refuseAll(problem);
    this.peers.set(message.segment.index, { socket, seen: Date.now() });
    say(`segment ${message.segment.index}/${count} is ready (${this.peers.size + 1} of ${count})`);
    if (this.peers.size === count - 1) this.#settle({ ok: true });
  }

  #onResult(socket: Socket, index: number, raw: unknown): void {
    const peer = this.peers.get(index);
    if (peer === undefined || peer.socket !== socket) return;
    const parsed = parseRawResult(`segment ${index}/${this.#options.count}`, raw);
    peer.result = parsed.ok
      ? { index, raw: parsed.raw }
      : { index, lost: `its result was not a raw result (${parsed.issues.length} problems)` };
    sendMessage(socket, { type: 'done' });
    this.#changed();
  }

  #onClose(socket: Socket, index: number): void {
    const peer = this.peers.get(index);
    const who = `segment ${index}/${this.#options.count}`;
    if (peer === undefined || peer.socket !== socket) return;
    if (!this.#released) {
      this.peers.delete(index);
      this.#options.say(`${who} left before the release`);
    } else if (peer.result === undefined) {
      const when = new Date().toISOString();
      this.#lose(index, peer, `lost at ${when}: its connection closed before it sent its result`);
    }
  }
}

/** Why a segment's `ready` refuses the run, or undefined. */
function readyProblem(
  options: CoordinatorOptions,
  peers: ReadonlyMap<number, Peer>,
  message: Extract<RendezvousMessage, { type: 'ready' }>,
  released: boolean,
): string | undefined {
  const { index, count } = message.segment;
  const who = `segment ${index}/${count}`;
  if (released)
    return `${who} arrived after the release (a restarted pod would send its share twice)`;
  if (count !== options.count)
    return `${who} is one of ${count} segments, this is one of ${options.count}`;
  if (index === 1 || index > count) return `${who} claims the first segment's place`;
  if (peers.has(index)) return `${who} is ready twice`;
  if (message.version !== options.version)
    return `${who} runs barrage ${message.version}, the first segment ${options.version}`;
  if (message.fingerprint !== options.fingerprint)
    return `${who} has another plan (fingerprint ${message.fingerprint} ≠ ${options.fingerprint}): its configuration, scenario or data differ`;
  return undefined;
}

function missingIndexes(count: number, peers: ReadonlyMap<number, Peer>): string {
  const missing: string[] = [];
  for (let index = 2; index <= count; index++)
    if (!peers.has(index)) missing.push(`${index}/${count}`);
  return `segment${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
}

/** Listens on the port: on the host itself when it is a loopback address, else on every interface. */
async function listen(server: Server, address: CoordinatorAddress): Promise<string | undefined> {
  const loopback =
    address.host === 'localhost' ||
    (isIP(address.host) !== 0 && /^(127\.|::1$)/.test(address.host));
  return new Promise((resolve) => {
    server.once('error', (error) =>
      resolve(`cannot listen on port ${address.port}: ${error.message}`),
    );
    server.listen(address.port, loopback ? address.host : undefined, () => resolve(undefined));
  });
}
