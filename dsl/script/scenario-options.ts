/**
 * `export const options` of a scenario, read at load time: the bundle runs in a throwaway
 * isolate (small memory limit, short timeout, a stub API whose functions throw), and `options`
 * leaves it as JSON text, so only plain data crosses. The caller validates it as a configuration
 * layer (dsl/layers.ts) like any other.
 */
import ivm from 'isolated-vm';
import type { ConfigIssue } from '../issues.js';
import type { ScriptBundle } from '../plan/plan.js';
import { err, ok, type Result } from '../result.js';
import { REMOVE_GLOBALS_SOURCE } from '../plan/removed-globals.js';

/** Reading the options may take this long (top-level code of the scenario included). */
const OPTIONS_TIMEOUT_MS = 1000;
const OPTIONS_MEMORY_MB = 32;

/** Runs the bundle's top level with an API that refuses calls, and returns `options` as JSON. */
const READ_OPTIONS = `
${REMOVE_GLOBALS_SOURCE}
const refuse = (name) => () => { throw new Error(name + ' is not available outside an iteration'); };
const api = {
  http: { get: refuse('http.get'), post: refuse('http.post'), put: refuse('http.put'),
          patch: refuse('http.patch'), del: refuse('http.del'), request: refuse('http.request') },
  ws: { session: refuse('ws.session') },
  check: refuse('check'), sleep: refuse('sleep'), group: refuse('group'), feed: refuse('feed'),
  vars: { get: refuse('vars.get'), set: refuse('vars.set') },
};
const options = $0(api).options;
return options === undefined ? undefined : JSON.stringify(options);`;

/** The scenario's options as plain data, undefined when it exports none. */
export function readScenarioOptions(
  script: ScriptBundle,
): Result<Record<string, unknown> | undefined, ConfigIssue[]> {
  const isolate = new ivm.Isolate({ memoryLimit: OPTIONS_MEMORY_MB });
  try {
    const context = isolate.createContextSync();
    const factory = isolate
      .compileScriptSync(script.code, { filename: script.file })
      .runSync(context, { reference: true, timeout: OPTIONS_TIMEOUT_MS });
    const text: unknown = context.evalClosureSync(READ_OPTIONS, [factory.derefInto()], {
      result: { copy: true },
      timeout: OPTIONS_TIMEOUT_MS,
    });
    if (typeof text !== 'string') return ok(undefined);
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return err([problem(script, 'an object of configuration keys', JSON.stringify(value))]);
    return ok(value as Record<string, unknown>);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return err([problem(script, 'options that evaluate without error', message)]);
  } finally {
    isolate.dispose();
  }
}

function problem(script: ScriptBundle, expected: string, actual: string): ConfigIssue {
  return {
    code: 'script_error',
    source: { kind: 'scenario', file: script.file },
    path: [],
    expected,
    actual,
  };
}
