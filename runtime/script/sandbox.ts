/**
 * The isolate of one scripted segment (DESIGN.md §9): one isolated-vm Isolate with a memory limit,
 * the bundle compiled once, and a context per virtual user built by the bootstrap
 * (bootstrap-source.ts). No snapshot, cached data or inspector is used. Limits:
 * - CPU: every entry into the isolate (an iteration's start, each continuation after a host
 *   operation settles) runs under `cpuMs`; past it the entry is terminated.
 * - Awaits: the isolate's timeout does not cover them, so a watchdog cuts an iteration that has
 *   been idle — no host operation in flight, not settled — for longer than `idleMs`.
 * - Memory: an isolate past its limit is disposed by isolated-vm; every iteration in it fails and
 *   the next one builds a new isolate (module state is lost; variables live on the host).
 * How an entry failed is read from the isolate's state and the entry's length, not from message
 * text (isolated-vm's errors have no codes): an error thrown by applySync() with the isolate disposed
 * is the memory limit; one thrown after the entry ran for its whole limit is the CPU limit; any
 * other is the script's own — a promise rejected and never handled, which isolated-vm reports
 * through the entry that created it (errors thrown by the scenario come back as data from run()).
 */
import ivm from 'isolated-vm';
import type { ScriptPlan } from '../../dsl/plan/plan.js';
import { BOOTSTRAP_SOURCE } from './bootstrap-source.js';
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

/** The host side of the API, per virtual user. */
export interface SandboxOps {
  /** An operation that settles later (http, sleep); rejects with a message the script sees. */
  later(vu: number, op: string, args: unknown): Promise<unknown>;
  /** An operation answered at once (check, vars, feed, jsonpath); throws to the script. */
  call(vu: number, op: string, args: unknown): unknown;
}

/** Limits of the sandbox. */
export interface SandboxLimits {
  readonly memoryMb: number;
  readonly cpuMs: number;
  readonly idleMs: number;
}

interface Active {
  /** Which entry this is: a late end() of an entry already cut must not end the next one. */
  readonly token: number;
  /** Reads the entry's result. */
  readonly read: (value: unknown) => SandboxOutcome;
  inflight: number;
  idleSinceMs: number;
  finish(outcome: SandboxOutcome): void;
}

interface VuContext {
  readonly context: ivm.Context;
  readonly run: ivm.Reference;
  readonly settle: ivm.Reference;
  readonly setup: ivm.Reference;
  active: Active | undefined;
}

/** One segment's isolate and its virtual users' contexts. */
export class Sandbox {
  #isolate: ivm.Isolate | undefined;
  #script: ivm.Script | undefined;
  readonly #contexts = new Map<number, VuContext>();
  readonly #watchdog: NodeJS.Timeout;
  #tokens = 0;

  constructor(
    private readonly plan: ScriptPlan,
    private readonly limits: SandboxLimits,
    private readonly ops: SandboxOps,
    private readonly nowMs: () => number,
    private readonly onStray: (failure: SandboxOutcome & { kind: 'error' }) => void,
  ) {
    const period = Math.min(250, Math.max(10, limits.idleMs / 4));
    this.#watchdog = setInterval(() => this.#sweep(), period);
  }

  /** Runs one iteration of a virtual user. */
  iterate(vu: number, iteration: number, data: unknown): Promise<SandboxOutcome> {
    return this.#enter(
      vu,
      (ctx) => ctx.run,
      [vu, iteration, data],
      (value) =>
        value === null ? { kind: 'ok' } : { kind: 'error', error: value as ScriptErrorInfo },
    );
  }

  /** Runs the scenario's setup() in a virtual user's context; its data comes back copied. */
  setup(vu: number): Promise<SandboxOutcome> {
    return this.#enter(
      vu,
      (ctx) => ctx.setup,
      [],
      (value) => {
        const result = value as { ok: boolean; data?: unknown; error?: ScriptErrorInfo };
        return result.ok
          ? { kind: 'ok', data: result.data }
          : { kind: 'error', error: result.error! };
      },
    );
  }

  /** Ends the sandbox. */
  dispose(): void {
    clearInterval(this.#watchdog);
    this.#lost({ kind: 'timeout' });
    if (this.#isolate !== undefined && !this.#isolate.isDisposed) this.#isolate.dispose();
    this.#isolate = undefined;
  }

  #enter(
    vu: number,
    target: (ctx: VuContext) => ivm.Reference,
    args: unknown[],
    read: (value: unknown) => SandboxOutcome,
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
        idleSinceMs: this.nowMs(),
        finish: (outcome) => {
          if (ctx.active !== active) return;
          ctx.active = undefined;
          resolve(outcome);
        },
      };
      ctx.active = active;
      const enteredAt = this.nowMs();
      try {
        target(ctx).applySync(undefined, [token, ...args], {
          arguments: { copy: true },
          timeout: this.limits.cpuMs,
        });
      } catch (error) {
        active.finish(this.#failure(error, this.nowMs() - enteredAt));
      }
    });
  }

  /** An error thrown by an entry that lasted `elapsedMs` (see the file comment). */
  #failure(error: unknown, elapsedMs: number): SandboxOutcome {
    if (this.#isolate === undefined || this.#isolate.isDisposed) {
      this.#lost({ kind: 'memory' });
      return { kind: 'memory' };
    }
    if (error instanceof ScenarioLoadError) return { kind: 'error', error: error.info };
    if (elapsedMs >= this.limits.cpuMs) return { kind: 'timeout' };
    return { kind: 'error', error: describe(error) };
  }

  /** The isolate is gone: every iteration in it ends, and the next one starts a new isolate. */
  #lost(outcome: SandboxOutcome): void {
    for (const ctx of this.#contexts.values()) ctx.active?.finish(outcome);
    this.#contexts.clear();
    this.#script = undefined;
    if (this.#isolate?.isDisposed === true) this.#isolate = undefined;
  }

  #context(vu: number): VuContext {
    const existing = this.#contexts.get(vu);
    if (existing !== undefined) return existing;
    this.#isolate ??= new ivm.Isolate({ memoryLimit: this.limits.memoryMb });
    const isolate = this.#isolate;
    this.#script ??= isolate.compileScriptSync(this.plan.code, { filename: BUNDLE_NAME });
    const context = isolate.createContextSync();
    const factory = this.#script.runSync(context, {
      reference: true,
      timeout: this.limits.cpuMs,
    });
    // `ignored`: the isolate does not wait for the host to run it (it answers through settle).
    const start = new ivm.Callback(
      (id: number, op: string, json: string) => this.#start(vu, id, op, JSON.parse(json)),
      { ignored: true },
    );
    const call = new ivm.Callback((op: string, args: unknown) => this.ops.call(vu, op, args));
    const end = new ivm.Callback((token: number, value: unknown) => this.#end(vu, token, value), {
      ignored: true,
    });
    let handles: ivm.Reference;
    try {
      handles = context.evalClosureSync(BOOTSTRAP_SOURCE, [start, call, end, factory.derefInto()], {
        result: { reference: true },
        timeout: this.limits.cpuMs,
      });
    } catch (error) {
      context.release();
      if (isolate.isDisposed) throw error;
      // The scenario's top-level code threw: an error of the script, reported as such.
      throw new ScenarioLoadError(describe(error));
    } finally {
      factory.release();
    }
    const ctx: VuContext = {
      context,
      run: handles.getSync(0, { reference: true }),
      settle: handles.getSync(1, { reference: true }),
      setup: handles.getSync(2, { reference: true }),
      active: undefined,
    };
    handles.release();
    this.#contexts.set(vu, ctx);
    return ctx;
  }

  /** An entry of a virtual user's script has finished (the end() of the bootstrap). */
  #end(vu: number, token: number, value: unknown): void {
    const active = this.#contexts.get(vu)?.active;
    if (active?.token === token) active.finish(active.read(value));
  }

  /** A host operation asked for by a virtual user's script. */
  #start(vu: number, id: number, op: string, args: unknown): void {
    const ctx = this.#contexts.get(vu);
    const active = ctx?.active;
    if (ctx === undefined || active === undefined) return;
    active.inflight++;
    const settle = (ok: boolean, value: unknown): void => {
      active.inflight--;
      const enteredAt = (active.idleSinceMs = this.nowMs());
      if (ctx.active !== active) return;
      try {
        const text = ok && value !== undefined ? JSON.stringify(value) : value;
        ctx.settle.applySync(undefined, [id, ok, text], {
          arguments: { copy: true },
          timeout: this.limits.cpuMs,
        });
      } catch (error) {
        const failure = this.#failure(error, this.nowMs() - enteredAt);
        // A rejection nobody handled may surface after its iteration ended: still counted.
        if (ctx.active === active) active.finish(failure);
        else if (failure.kind === 'error') this.onStray(failure);
      }
    };
    this.ops.later(vu, op, args).then(
      (value) => settle(true, value),
      (error: unknown) => settle(false, error instanceof Error ? error.message : String(error)),
    );
  }

  /** The watchdog: an iteration idle (awaiting nothing of barrage's) for too long is cut. */
  #sweep(): void {
    const now = this.nowMs();
    for (const ctx of this.#contexts.values()) {
      const active = ctx.active;
      if (
        active !== undefined &&
        active.inflight === 0 &&
        now - active.idleSinceMs > this.limits.idleMs
      )
        active.finish({ kind: 'timeout' });
    }
  }
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
