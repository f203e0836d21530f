/**
 * How an entry into a segment's sandbox (sandbox.ts) ended, as plain data: read from its END
 * record's JSON text, or from what a call into the isolate threw.
 */

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
  | { readonly kind: 'memory' }
  /** The segment was cut (hard stop, or the end of the stop's grace period) while it ran. */
  | { readonly kind: 'aborted' };

/** An iteration's END record: '' when it did not throw, else { name, message, stack }. */
export function readIteration(json: string): SandboxOutcome {
  return json === ''
    ? { kind: 'ok' }
    : { kind: 'error', error: JSON.parse(json) as ScriptErrorInfo };
}

export function readSetup(json: string): SandboxOutcome {
  const result = JSON.parse(json) as { ok: boolean; data?: unknown; error?: ScriptErrorInfo };
  return result.ok ? { kind: 'ok', data: result.data } : { kind: 'error', error: result.error! };
}

/** The scenario's top-level code threw while a context was being built. */
export class ScenarioLoadError extends Error {
  constructor(readonly info: ScriptErrorInfo) {
    super(info.message);
  }
}

/** A thrown value as plain data. */
export function describe(error: unknown): ScriptErrorInfo {
  if (error instanceof Error)
    return { name: error.name, message: error.message, stack: error.stack ?? '' };
  return { name: 'Error', message: String(error), stack: '' };
}
