/**
 * The isolate of one scripted segment (DESIGN.md §9): one isolated-vm Isolate with a memory limit,
 * the bundle compiled once, a context per virtual user built by the bootstrap, and the hub that
 * carries messages between host and isolate in batches (sandbox/isolate/hub.ts, bootstrap.ts). Every message of an
 * event-loop turn (iterations to start, host operations settled) goes in with one pump(); what the
 * scripts asked for meanwhile (operations to start, iterations ended) comes out with one take().
 * No snapshot, cached data or inspector is used. Limits:
 * - CPU: every pump runs under `cpuMs` (plus up to a window, see pumpTimeout); past it, it is
 *   terminated, and every iteration it carried a message to is cut (their continuations are lost
 *   with it).
 * - Awaits: the isolate's timeout does not cover them, so a watchdog cuts an iteration that has
 *   been idle — no host operation in flight, not settled — for longer than `idleMs`.
 * - Memory: an isolate past its limit is disposed by isolated-vm; every iteration in it fails,
 *   onOverrun is called once, and no isolate is built again: every later entry fails at once as
 *   `memory`. (Rebuilding it, as this once did, rebuilt every virtual user's context, and a
 *   concurrency that did not fit overran again and again, for ever.) WebAssembly, whose memories
 *   the limit does not count, is deleted from each context first (removed-globals.ts).
 * How a pump failed is read from the isolate's state and the pump's length, not from message text
 * (isolated-vm's errors have no codes): an error thrown with the isolate disposed is the memory
 * limit; one thrown after the pump ran for its whole limit is the CPU limit; any other is a
 * promise of the script rejected and never handled (errors thrown by the scenario come back as
 * data in END records), counted through onStray since it belongs to no iteration in particular.
 * Requests not awaited: an entry is over once its function has settled and the requests it started
 * (REQUEST_OPS: http calls, batches, ws sessions), whether awaited or not, have settled too, as
 * k6's event loop waits for what an iteration started. What their continuations start meanwhile
 * counts as the entry's too. So every request that goes on the wire is recorded, within the
 * request's own timeout and the run's stop grace (a hard stop cuts the entry as any other).
 */
import { isolatedVm, type IsolatedVm } from '../../native/isolated-vm.js';
import type { ScriptPlan } from '../../model/plan/plan.js';
import { webHost } from '../../sandbox/web-host.js';
import { isolateSource } from '../../sandbox/isolate-source.js';
import {
  inbound,
  inboundWidth,
  readOutbound,
  RECORD,
  type EntryKind,
  type OutboundReader,
  type RecordValue,
} from '../../sandbox/isolate/records.js';
import { sharedMb } from './shared-data-tables.js';
import { createHub, type Hub } from './sandbox-hub.js';
import {
  describe,
  readIteration,
  readSetup,
  ScenarioLoadError,
  type SandboxOutcome,
} from './sandbox-outcome.js';
import type { Settle } from './settled.js';
import { BUNDLE_NAME } from './source-position.js';

/** Pumps whose calls start within a window of this length share their deadline. */
const MAX_WINDOW_MS = 50;

/**
 * A pump's limit, started at `nowMs`: at least the CPU limit, and running on to the end of the
 * current window past it, so that the pumps of one window share a deadline. isolated-vm keeps
 * each timed call's timer queued until its deadline, even once the call is over, and its timer
 * thread wakes at every deadline: one deadline per pump woke it thousands of times a second
 * from `cpuMs` into a run, and on one core took a sixth of the requests/s. With shared ones it
 * wakes a few times per window. A pump may so run up to a window longer than the limit.
 */
export function pumpTimeout(nowMs: number, cpuMs: number): number {
  const window = Math.min(MAX_WINDOW_MS, Math.max(1, cpuMs / 10));
  const windowEnd = (Math.floor(nowMs / window) + 1) * window;
  return Math.ceil(windowEnd + cpuMs - nowMs);
}

export type { SandboxOutcome, ScriptErrorInfo } from './sandbox-outcome.js';

export type { Settle, Settled } from './settled.js';

/** The host side of the API, per virtual user. */
export interface SandboxOps {
  /**
   * An operation that settles later (http, ws, sleep), its arguments as JSON text and the bytes
   * they name by place (binary bodies and multipart files; empty for most).
   */
  later(vu: number, op: string, json: string, settle: Settle, bytes: readonly Uint8Array[]): void;
  /** An operation answered at once (check, vars, feed, jsonpath, html); throws to the script. */
  call(vu: number, op: string, args: unknown): unknown;
}

/** The host operations that put a request on the wire: an entry's end waits for them. */
const REQUEST_OPS: ReadonlySet<string> = new Set(['http', 'http.batch', 'ws']);

/** Limits of the sandbox. */
export interface SandboxLimits {
  readonly memoryMb: number;
  readonly cpuMs: number;
  readonly idleMs: number;
}

/** What a sandbox is built from. */
export interface SandboxDeps {
  readonly plan: ScriptPlan;
  readonly limits: SandboxLimits;
  readonly ops: SandboxOps;
  /** setup()'s data, copied into every iteration (undefined: none). */
  readonly data?: unknown;
  readonly nowMs: () => number;
  /** A promise rejected and never handled: a script error of no iteration in particular. */
  readonly onStray: (failure: SandboxOutcome & { kind: 'error' }) => void;
  /**
   * A console call of a virtual user's script (its level and text), or, with level '', `dropped`
   * calls the hub did not carry (past its bound per take).
   */
  readonly onConsole?:
    ((vu: number, level: string, text: string, dropped: number) => void) | undefined;
  /** The isolate passed its memory limit (called once; the sandbox builds no other). */
  readonly onOverrun?: (() => void) | undefined;
}

/** A virtual user's context, and the entry (an iteration or setup()) running in it. */
interface VuContext {
  readonly context: IsolatedVm.Context;
  /** Which entry runs, 0 when none: a late END of an entry already cut must not end the next. */
  token: number;
  /** Reads the entry's result (its END record's JSON text). */
  read: (json: string) => SandboxOutcome;
  done: (outcome: SandboxOutcome) => void;
  /** Host operations of the entry in flight, and since when it has had none. */
  inflight: number;
  idleSinceMs: number;
  /** Its requests (REQUEST_OPS) not settled yet, awaited or not. */
  requests: number;
  /** How its function ended, while its requests not awaited are still in flight. */
  ended: SandboxOutcome | undefined;
}

/** One segment's isolate and its virtual users' contexts. */
export class Sandbox {
  #isolate: IsolatedVm.Isolate | undefined;
  #script: IsolatedVm.Script | undefined;
  #hub: Hub | undefined;
  readonly #contexts = new Map<number, VuContext>();
  readonly #watchdog: NodeJS.Timeout;
  readonly #data: string | undefined;
  /** The scenario's environment as JSON text (sandbox/scenario-env.ts). */
  readonly #env: string;
  /** Records for the next pump (sandbox/isolate/records.ts). */
  #inbox: RecordValue[] = [];
  #flush: NodeJS.Immediate | undefined;
  readonly #pumpBound = (): void => this.#pump();
  #tokens = 0;
  /** Contexts whose function has ended, waiting for their requests not awaited. */
  readonly #draining = new Set<VuContext>();
  /** The BYTES records of the START record that follows them: its virtual user, id and bytes. */
  #bytes: { vu: number; id: number; list: Uint8Array[] } | undefined;
  /** The isolate passed its memory limit: none is built again. */
  #overrun = false;

  constructor(private readonly deps: SandboxDeps) {
    this.#data = deps.data === undefined ? undefined : JSON.stringify(deps.data);
    this.#env = JSON.stringify(deps.plan.env);
    const period = Math.min(250, Math.max(10, deps.limits.idleMs / 4));
    this.#watchdog = setInterval(() => this.#sweep(), period);
  }

  /**
   * Runs one iteration of a virtual user (the scenario's export `exec`, '' for the default);
   * `done` is called once it is over, which may be before this returns (its context could not be
   * built).
   */
  iterate(vu: number, iteration: number, done: (outcome: SandboxOutcome) => void, exec = ''): void {
    this.#enter(vu, RECORD.RUN, iteration, readIteration, done, exec);
  }

  /**
   * Builds a virtual user's context ahead of its first iteration. When that fails (the scenario's
   * top-level code throws), the first iteration tries again and reports why.
   */
  prepare(vu: number): void {
    try {
      this.#context(vu);
    } catch (error) {
      // The memory limit is reported now; the scenario's error by the first iteration.
      if (this.#isolate === undefined || this.#isolate.isDisposed) this.#failure(error, 0);
    }
  }

  /** Runs the scenario's setup() in a virtual user's context; its data comes back copied. */
  setup(vu: number): Promise<SandboxOutcome> {
    return new Promise((resolve) => this.#enter(vu, RECORD.SETUP, 0, readSetup, resolve));
  }

  /** Runs the scenario's teardown() in a virtual user's context, with the sandbox's data. */
  teardown(vu: number): Promise<SandboxOutcome> {
    return new Promise((resolve) => this.#enter(vu, RECORD.TEARDOWN, 0, readSetup, resolve));
  }

  /**
   * Ends every entry under way as `aborted`, host side: what its code asks for from now on is never
   * answered, so it stays parked in the isolate until dispose() (a loop of awaited calls would
   * otherwise go on for ever once sleeps settle at once on a hard stop).
   */
  cut(): void {
    for (const ctx of this.#contexts.values()) this.#finish(ctx, { kind: 'aborted' });
  }

  /** Ends the sandbox. */
  dispose(): void {
    clearInterval(this.#watchdog);
    if (this.#flush !== undefined) clearImmediate(this.#flush);
    this.#lost({ kind: 'timeout' });
    if (this.#isolate !== undefined && !this.#isolate.isDisposed) this.#isolate.dispose();
    this.#isolate = undefined;
  }

  #enter(
    vu: number,
    kind: EntryKind,
    argument: number,
    read: (json: string) => SandboxOutcome,
    done: (outcome: SandboxOutcome) => void,
    exec = '',
  ): void {
    let ctx: VuContext;
    try {
      ctx = this.#context(vu);
    } catch (error) {
      done(this.#failure(error, 0));
      return;
    }
    const token = ++this.#tokens;
    ctx.token = token;
    ctx.read = read;
    ctx.done = done;
    ctx.inflight = 0;
    ctx.idleSinceMs = this.deps.nowMs();
    ctx.requests = 0;
    ctx.ended = undefined;
    inbound.entry(this.#inbox, vu, kind, token, argument, exec);
    this.#schedule();
  }

  /** The pump runs once the event loop's turn is done. */
  #schedule(): void {
    this.#flush ??= setImmediate(this.#pumpBound);
  }

  /** Ends the entry running in a context, if any. */
  #finish(ctx: VuContext, outcome: SandboxOutcome): void {
    if (ctx.token === 0) return;
    ctx.token = 0;
    ctx.ended = undefined;
    this.#draining.delete(ctx);
    ctx.done(outcome);
  }

  /** Delivers the queued records, then starts what the scripts asked for. */
  #pump(): void {
    this.#flush = undefined;
    const records = this.#inbox;
    this.#inbox = [];
    const hub = this.#hub;
    if (hub === undefined) return;
    const enteredAt = this.deps.nowMs();
    try {
      hub.pump.applySync(undefined, [records], {
        arguments: { copy: true },
        timeout: pumpTimeout(enteredAt, this.deps.limits.cpuMs),
      });
    } catch (error) {
      const failure = this.#failure(error, this.deps.nowMs() - enteredAt);
      if (failure.kind === 'memory') return;
      if (failure.kind === 'error') this.deps.onStray(failure);
      else
        for (let i = 0; i < records.length; i += inboundWidth(records[i + 1]))
          this.#cut(records[i] as number, failure);
    }
    let posted: RecordValue[];
    try {
      // No timeout: take runs only the hub's own code (V8 empties the microtask queue when it
      // terminates a pump), and each timed call costs isolated-vm a timer entry.
      posted = hub.take.applySync(undefined, [], { result: { copy: true } }) as RecordValue[];
    } catch (error) {
      this.#failure(error, 0);
      return;
    }
    readOutbound(posted, this.#outbound);
    // After the pump: the continuations of the responses it delivered have posted their calls.
    for (const ctx of this.#draining) if (ctx.requests === 0) this.#finish(ctx, ctx.ended!);
  }

  /** What the host does with the records the isolate posted. */
  readonly #outbound: OutboundReader = {
    bytes: (vu, id, bytes) => {
      if (this.#bytes?.vu !== vu || this.#bytes.id !== id) this.#bytes = { vu, id, list: [] };
      this.#bytes.list.push(new Uint8Array(bytes));
    },
    start: (vu, id, op, json) => {
      const bytes = this.#bytes?.vu === vu && this.#bytes.id === id ? this.#bytes.list : [];
      this.#bytes = undefined;
      this.#start(vu, id, op, json, bytes);
    },
    end: (vu, token, json) => this.#end(vu, token, json),
    log: (vu, level, text, dropped) => this.deps.onConsole?.(vu, level, text, dropped),
    // The entry threw taking a record (the scenario broke a built-in it relies on): what runs
    // there cannot go on, and ends as a script error.
    fault: (vu, message) =>
      this.#cut(vu, {
        kind: 'error',
        error: {
          name: 'Error',
          message: `the sandbox could not deliver a message: ${message}`,
          stack: '',
        },
      }),
  };

  /** Ends a virtual user's running entry, if any. */
  #cut(vu: number, outcome: SandboxOutcome): void {
    const ctx = this.#contexts.get(vu);
    if (ctx !== undefined) this.#finish(ctx, outcome);
  }

  /** An error thrown by a call into the isolate that lasted `elapsedMs` (see the file comment). */
  #failure(error: unknown, elapsedMs: number): SandboxOutcome {
    if (this.#isolate === undefined || this.#isolate.isDisposed) {
      this.#lost({ kind: 'memory' });
      return { kind: 'memory' };
    }
    if (error instanceof ScenarioLoadError) return { kind: 'error', error: error.info };
    if (elapsedMs >= this.deps.limits.cpuMs) return { kind: 'timeout' };
    return { kind: 'error', error: describe(error) };
  }

  /** The isolate is gone: every iteration in it ends (past its memory limit: for good). */
  #lost(outcome: SandboxOutcome): void {
    if (outcome.kind === 'memory' && !this.#overrun) {
      this.#overrun = true;
      this.deps.onOverrun?.();
    }
    const contexts = [...this.#contexts.values()];
    this.#contexts.clear();
    this.#inbox = [];
    this.#hub = undefined;
    this.#script = undefined;
    if (this.#isolate?.isDisposed === true) this.#isolate = undefined;
    for (const ctx of contexts) this.#finish(ctx, outcome);
  }

  #context(vu: number): VuContext {
    const existing = this.#contexts.get(vu);
    if (existing !== undefined) return existing;
    // Read by #failure as the memory limit (no isolate).
    if (this.#overrun) throw new Error('the isolate passed its memory limit');
    const { cpuMs } = this.deps.limits;
    const ivm = isolatedVm();
    const data = this.deps.plan.data ?? [];
    this.#isolate ??= new ivm.Isolate({ memoryLimit: this.deps.limits.memoryMb + sharedMb(data) });
    const isolate = this.#isolate;
    this.#script ??= isolate.compileScriptSync(this.deps.plan.code, { filename: BUNDLE_NAME });
    const hub = (this.#hub ??= createHub(isolate, cpuMs, data));
    const context = isolate.createContextSync();
    const factory = this.#script.runSync(context, { reference: true, timeout: cpuMs });
    const call = new ivm.Callback((op: string, args: unknown) => this.deps.ops.call(vu, op, args));
    let entry: IsolatedVm.Reference;
    try {
      entry = context.evalClosureSync(
        isolateSource('bootstrap'),
        [
          hub.post.derefInto(),
          call,
          factory.derefInto(),
          vu,
          this.#data,
          hub.data.derefInto(),
          new ivm.Callback(webHost),
          this.#env,
        ],
        { result: { reference: true }, timeout: cpuMs },
      );
    } catch (error) {
      context.release();
      if (isolate.isDisposed) throw error;
      // The scenario's top-level code threw: an error of the script, reported as such.
      throw new ScenarioLoadError(describe(error));
    } finally {
      factory.release();
    }
    hub.add.applySync(undefined, [vu, entry.derefInto()], { timeout: cpuMs });
    entry.release();
    const ctx: VuContext = {
      context,
      token: 0,
      read: readIteration,
      done: () => undefined,
      inflight: 0,
      idleSinceMs: 0,
      requests: 0,
      ended: undefined,
    };
    this.#contexts.set(vu, ctx);
    return ctx;
  }

  /** An entry of a virtual user's script has finished (its END record). */
  #end(vu: number, token: number, json: string): void {
    const ctx = this.#contexts.get(vu);
    if (ctx === undefined || ctx.token !== token) return;
    const outcome = ctx.read(json);
    if (ctx.requests === 0) {
      this.#finish(ctx, outcome);
      return;
    }
    ctx.ended = outcome;
    this.#draining.add(ctx);
  }

  /** A host operation asked for by a virtual user's script (its START record). */
  #start(vu: number, id: number, op: string, json: string, bytes: readonly Uint8Array[]): void {
    const ctx = this.#contexts.get(vu);
    if (ctx === undefined || ctx.token === 0) return;
    const token = ctx.token;
    const request = REQUEST_OPS.has(op);
    ctx.inflight++;
    if (request) ctx.requests++;
    this.deps.ops.later(
      vu,
      op,
      json,
      (settled) => {
        // The entry was cut, or the isolate lost, meanwhile: nobody waits for this any more.
        if (ctx.token !== token || this.#contexts.get(vu) !== ctx) return;
        if (settled.kind === 'event') {
          inbound.event(this.#inbox, vu, id, settled.type, settled.payload);
          this.#schedule();
          return;
        }
        ctx.inflight--;
        if (request) ctx.requests--;
        ctx.idleSinceMs = this.deps.nowMs();
        if (settled.kind === 'response') inbound.response(this.#inbox, vu, id, settled);
        else if (settled.kind === 'value') inbound.ok(this.#inbox, vu, id, settled.json);
        else inbound.failed(this.#inbox, vu, id, settled.message);
        this.#schedule();
      },
      bytes,
    );
  }

  /** The watchdog: an iteration idle (awaiting nothing of barrage's) for too long is cut. */
  #sweep(): void {
    const now = this.deps.nowMs();
    for (const ctx of this.#contexts.values())
      if (ctx.token !== 0 && ctx.inflight === 0 && now - ctx.idleSinceMs > this.deps.limits.idleMs)
        this.#finish(ctx, { kind: 'timeout' });
  }
}
