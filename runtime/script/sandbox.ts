/**
 * The isolate of one scripted segment (DESIGN.md §9): one isolated-vm Isolate with a memory limit,
 * the bundle compiled once, a context per virtual user built by the bootstrap, and the hub that
 * carries messages between host and isolate in batches (bootstrap-source.ts). Every message of an
 * event-loop turn (iterations to start, host operations settled) goes in with one pump(); what the
 * scripts asked for meanwhile (operations to start, iterations ended) comes out with one take().
 * No snapshot, cached data or inspector is used. Limits:
 * - CPU: every pump runs under `cpuMs`; past it, it is terminated, and every iteration it carried
 *   a message to is cut (their continuations are lost with it).
 * - Awaits: the isolate's timeout does not cover them, so a watchdog cuts an iteration that has
 *   been idle — no host operation in flight, not settled — for longer than `idleMs`.
 * - Memory: an isolate past its limit is disposed by isolated-vm; every iteration in it fails and
 *   the next one builds a new isolate (module state is lost; variables live on the host).
 * How a pump failed is read from the isolate's state and the pump's length, not from message text
 * (isolated-vm's errors have no codes): an error thrown with the isolate disposed is the memory
 * limit; one thrown after the pump ran for its whole limit is the CPU limit; any other is a
 * promise of the script rejected and never handled (errors thrown by the scenario come back as
 * data in END records), counted through onStray since it belongs to no iteration in particular.
 */
import ivm from 'isolated-vm';
import type { ScriptPlan } from '../../dsl/plan/plan.js';
import { BOOTSTRAP_SOURCE, HUB_SOURCE, RECORD, RECORD_WIDTH } from './bootstrap-source.js';
import { BUNDLE_NAME } from './source-position.js';

/** A script error as plain data. */
export interface ScriptErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly stack: string;
}

/** How an entry into the sandbox ended. */
export type SandboxOutcome =
  | { readonly kind: 'ok'; readonly data?: unknown }
  | { readonly kind: 'error'; readonly error: ScriptErrorInfo }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'memory' };

/** What a host operation settled with, as it crosses into the isolate. */
export interface Settled {
  /** The value as JSON text ('' for undefined); for an http response, all but its status. */
  readonly json: string;
  /** An http response's status: the script reads it without parsing the rest. */
  readonly status?: number;
}

/** The host side of the API, per virtual user. */
export interface SandboxOps {
  /**
   * An operation that settles later (http, ws, sleep), its arguments as JSON text; rejects with a
   * message the script sees.
   */
  later(vu: number, op: string, json: string): Promise<Settled>;
  /** An operation answered at once (check, vars, feed, jsonpath); throws to the script. */
  call(vu: number, op: string, args: unknown): unknown;
}

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
}

/** An iteration (or setup()) running in a virtual user's context. */
interface Active {
  /** Which entry this is: a late END of an entry already cut must not end the next one. */
  readonly token: number;
  /** Reads the entry's result (its END record's JSON text). */
  readonly read: (json: string) => SandboxOutcome;
  inflight: number;
  idleSinceMs: number;
  finish(outcome: SandboxOutcome): void;
}

interface VuContext {
  readonly context: ivm.Context;
  active: Active | undefined;
}

/** The hub's functions, host side (they keep its context alive). */
interface Hub {
  readonly add: ivm.Reference;
  readonly pump: ivm.Reference;
  readonly take: ivm.Reference;
  readonly post: ivm.Reference;
}

/** One segment's isolate and its virtual users' contexts. */
export class Sandbox {
  #isolate: ivm.Isolate | undefined;
  #script: ivm.Script | undefined;
  #hub: Hub | undefined;
  readonly #contexts = new Map<number, VuContext>();
  readonly #watchdog: NodeJS.Timeout;
  readonly #data: string | undefined;
  /** Records [vu, kind, a, b, c] for the next pump. */
  #inbox: (number | string)[] = [];
  #flush: NodeJS.Immediate | undefined;
  #tokens = 0;

  constructor(private readonly deps: SandboxDeps) {
    this.#data = deps.data === undefined ? undefined : JSON.stringify(deps.data);
    const period = Math.min(250, Math.max(10, deps.limits.idleMs / 4));
    this.#watchdog = setInterval(() => this.#sweep(), period);
  }

  /** Runs one iteration of a virtual user. */
  iterate(vu: number, iteration: number): Promise<SandboxOutcome> {
    return this.#enter(vu, RECORD.RUN, iteration, (json) =>
      json === '' ? { kind: 'ok' } : { kind: 'error', error: JSON.parse(json) as ScriptErrorInfo },
    );
  }

  /** Runs the scenario's setup() in a virtual user's context; its data comes back copied. */
  setup(vu: number): Promise<SandboxOutcome> {
    return this.#enter(vu, RECORD.SETUP, 0, (json) => {
      const result = JSON.parse(json) as { ok: boolean; data?: unknown; error?: ScriptErrorInfo };
      return result.ok
        ? { kind: 'ok', data: result.data }
        : { kind: 'error', error: result.error! };
    });
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
    kind: number,
    argument: number,
    read: (json: string) => SandboxOutcome,
  ): Promise<SandboxOutcome> {
    let ctx: VuContext;
    try {
      ctx = this.#context(vu);
    } catch (error) {
      return Promise.resolve(this.#failure(error, 0));
    }
    return new Promise((resolve) => {
      const token = ++this.#tokens;
      const active: Active = {
        token,
        read,
        inflight: 0,
        idleSinceMs: this.deps.nowMs(),
        finish: (outcome) => {
          if (ctx.active !== active) return;
          ctx.active = undefined;
          resolve(outcome);
        },
      };
      ctx.active = active;
      this.#send(vu, kind, token, argument);
    });
  }

  /** Queues a record for the isolate; the pump runs once the event loop's turn is done. */
  #send(vu: number, kind: number, a: number, b: number | string, c: number | string = 0): void {
    this.#inbox.push(vu, kind, a, b, c);
    this.#flush ??= setImmediate(() => this.#pump());
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
        timeout: this.deps.limits.cpuMs,
      });
    } catch (error) {
      const failure = this.#failure(error, this.deps.nowMs() - enteredAt);
      if (failure.kind === 'memory') return;
      if (failure.kind === 'error') this.deps.onStray(failure);
      else
        for (let i = 0; i < records.length; i += RECORD_WIDTH)
          this.#cut(records[i] as number, failure);
    }
    let json: string;
    try {
      // No timeout: take runs only the hub's own code (V8 empties the microtask queue when it
      // terminates a pump), and each timed call costs isolated-vm a timer entry.
      json = hub.take.applySync(undefined, []) as string;
    } catch (error) {
      this.#failure(error, 0);
      return;
    }
    if (json === '') return;
    const posted = JSON.parse(json) as (number | string)[];
    for (let i = 0; i < posted.length; i += RECORD_WIDTH) {
      const vu = posted[i] as number;
      if (posted[i + 1] === RECORD.START)
        this.#start(vu, posted[i + 2] as number, posted[i + 3] as string, posted[i + 4] as string);
      else this.#end(vu, posted[i + 2] as number, posted[i + 3] as string);
    }
  }

  /** Ends a virtual user's running entry, if any. */
  #cut(vu: number, outcome: SandboxOutcome): void {
    this.#contexts.get(vu)?.active?.finish(outcome);
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

  /** The isolate is gone: every iteration in it ends, and the next one starts a new isolate. */
  #lost(outcome: SandboxOutcome): void {
    const contexts = [...this.#contexts.values()];
    this.#contexts.clear();
    this.#inbox = [];
    this.#hub = undefined;
    this.#script = undefined;
    if (this.#isolate?.isDisposed === true) this.#isolate = undefined;
    for (const ctx of contexts) ctx.active?.finish(outcome);
  }

  #context(vu: number): VuContext {
    const existing = this.#contexts.get(vu);
    if (existing !== undefined) return existing;
    const { cpuMs } = this.deps.limits;
    this.#isolate ??= new ivm.Isolate({ memoryLimit: this.deps.limits.memoryMb });
    const isolate = this.#isolate;
    this.#script ??= isolate.compileScriptSync(this.deps.plan.code, { filename: BUNDLE_NAME });
    const hub = (this.#hub ??= createHub(isolate, cpuMs));
    const context = isolate.createContextSync();
    const factory = this.#script.runSync(context, { reference: true, timeout: cpuMs });
    const call = new ivm.Callback((op: string, args: unknown) => this.deps.ops.call(vu, op, args));
    let entry: ivm.Reference;
    try {
      entry = context.evalClosureSync(
        BOOTSTRAP_SOURCE,
        [hub.post.derefInto(), call, factory.derefInto(), vu, this.#data],
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
    const ctx: VuContext = { context, active: undefined };
    this.#contexts.set(vu, ctx);
    return ctx;
  }

  /** An entry of a virtual user's script has finished (its END record). */
  #end(vu: number, token: number, json: string): void {
    const active = this.#contexts.get(vu)?.active;
    if (active?.token === token) active.finish(active.read(json));
  }

  /** A host operation asked for by a virtual user's script (its START record). */
  #start(vu: number, id: number, op: string, json: string): void {
    const ctx = this.#contexts.get(vu);
    const active = ctx?.active;
    if (ctx === undefined || active === undefined) return;
    active.inflight++;
    const settle = (kind: number, b: number | string, c?: string): void => {
      active.inflight--;
      active.idleSinceMs = this.deps.nowMs();
      if (ctx.active === active && this.#contexts.get(vu) === ctx) this.#send(vu, kind, id, b, c);
    };
    this.deps.ops.later(vu, op, json).then(
      ({ json, status }) =>
        status === undefined ? settle(RECORD.OK, json) : settle(RECORD.RESPONSE, status, json),
      (error: unknown) =>
        settle(RECORD.FAILED, error instanceof Error ? error.message : String(error)),
    );
  }

  /** The watchdog: an iteration idle (awaiting nothing of barrage's) for too long is cut. */
  #sweep(): void {
    const now = this.deps.nowMs();
    for (const ctx of this.#contexts.values()) {
      const active = ctx.active;
      if (
        active !== undefined &&
        active.inflight === 0 &&
        now - active.idleSinceMs > this.deps.limits.idleMs
      )
        active.finish({ kind: 'timeout' });
    }
  }
}

/** The hub's functions (HUB_SOURCE), in a context of their own. */
function createHub(isolate: ivm.Isolate, cpuMs: number): Hub {
  const handles = isolate.createContextSync().evalClosureSync(HUB_SOURCE, [], {
    result: { reference: true },
    timeout: cpuMs,
  });
  const [add, pump, take, post] = [0, 1, 2, 3].map((i) =>
    handles.getSync(i, { reference: true }),
  ) as [ivm.Reference, ivm.Reference, ivm.Reference, ivm.Reference];
  handles.release();
  return { add, pump, take, post };
}

/** The scenario's top-level code threw while a context was being built. */
class ScenarioLoadError extends Error {
  constructor(readonly info: ScriptErrorInfo) {
    super(info.message);
  }
}

function describe(error: unknown): ScriptErrorInfo {
  if (error instanceof Error)
    return { name: error.name, message: error.message, stack: error.stack ?? '' };
  return { name: 'Error', message: String(error), stack: '' };
}
